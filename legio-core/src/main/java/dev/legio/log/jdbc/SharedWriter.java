package dev.legio.log.jdbc;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Lets other stores on the same database run their writes on the message log's single writer
 * connection, in its group-committed transactions. On SQLite this keeps one writer for the whole
 * file (no lock hand-overs between connections, no busy waits); on PostgreSQL it shares commits,
 * and so fsyncs, with the log's appends.
 */
public interface SharedWriter {

  /** Binds the parameters of a prepared statement. */
  @FunctionalInterface
  interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /**
   * Runs one INSERT, UPDATE or DELETE in a write transaction and returns its update count once
   * committed. The statement must touch nothing but the database (it may be run again if another
   * write in the same transaction fails).
   */
  /** Runs one statement; see {@link #executeUpdates}. */
  default int executeUpdate(String sql, Binder binder) {
    return executeUpdates(List.of(new Update(sql, binder)))[0];
  }

  /** One INSERT, UPDATE or DELETE statement and its parameters. */
  record Update(String sql, Binder binder) {}

  /**
   * Runs the statements in order in one write transaction: all of them land or none. Returns their
   * update counts once committed. The same rules as {@link #executeUpdate} apply.
   */
  int[] executeUpdates(List<Update> updates);

  /**
   * Runs {@code updates} in order in one transaction on {@code connection}, as {@link
   * #executeUpdates} does on the writer's: all land or none; the connection's auto-commit is put
   * back. The stores' way when they have no shared writer.
   */
  static int[] inOneTransaction(Connection connection, List<Update> updates) throws SQLException {
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    try {
      int[] counts = new int[updates.size()];
      for (int i = 0; i < counts.length; i++) {
        try (PreparedStatement statement = connection.prepareStatement(updates.get(i).sql())) {
          updates.get(i).binder().bind(statement);
          counts[i] = statement.executeUpdate();
        }
      }
      connection.commit();
      return counts;
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(autoCommit);
    }
  }

  /** True when this is the writer of {@code log} (so {@link #appendWith} can append to it). */
  boolean writes(MessageLog log);

  /** A message as stored, and the update counts of the statements run with it. */
  record Appended(Message message, int[] counts) {}

  /**
   * Appends {@code message} to this writer's log and runs {@code updates} in the same transaction:
   * all land or none.
   */
  Appended appendWith(NewMessage message, List<Update> updates);
}
