package dev.legio.log.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The writer's connection during one transaction, with statements prepared once per connection and
 * reused (preparing costs more than running these small statements). Callers must not close the
 * statements it hands out; result sets they open they close themselves.
 *
 * <p>Appends are queued ({@link #append}) and written together ({@link PendingAppends}) before the
 * transaction commits or before any other statement is handed out, whichever comes first.
 */
final class WriteTransaction {
  private final Connection connection;
  private final Dialect dialect;
  private final Map<String, PreparedStatement> statements = new HashMap<>();
  private final PendingAppends appends = new PendingAppends();

  WriteTransaction(Connection connection, Dialect dialect) {
    this.connection = connection;
    this.dialect = dialect;
  }

  /** The connection, after writing the queued appends. */
  Connection connection() throws SQLException {
    flush();
    return connection;
  }

  /** A prepared statement, after writing the queued appends. */
  PreparedStatement prepare(String sql) throws SQLException {
    flush();
    return statement(sql);
  }

  /** Queues messages (and statements to run with them) to be written with the others queued. */
  PendingAppends.Entry append(List<Dialect.Row> rows, List<SharedWriter.Update> alongside) {
    return appends.add(rows, alongside);
  }

  /** Writes the queued appends; called before commit. */
  void flush() throws SQLException {
    if (!appends.isEmpty()) {
      appends.flush(this, dialect);
    }
  }

  /** A prepared statement, without flushing: for the flush itself and the dialect's writes. */
  PreparedStatement statement(String sql) throws SQLException {
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      statements.put(sql, statement);
    } else {
      statement.clearParameters();
    }
    return statement;
  }

  /**
   * After a failed transaction: forgets the queued appends and closes the prepared statements (with
   * the batches a failure left unexecuted), to be prepared again when next used. A statement that
   * failed may stay unusable: SQLite's driver answers every later run of one prepared while its
   * table was missing with "statement is not executing", even once the table is back.
   */
  void discardStatements() {
    appends.clear();
    for (PreparedStatement statement : statements.values()) {
      try {
        statement.close();
      } catch (SQLException ignored) {
        // the statement is dropped either way
      }
    }
    statements.clear();
  }

  void close() {
    for (PreparedStatement statement : statements.values()) {
      try {
        statement.close();
      } catch (SQLException ignored) {
        // closing the connection next releases it anyway
      }
    }
    try {
      connection.close();
    } catch (SQLException ignored) {
      // nothing more to do with a connection being thrown away
    }
  }
}
