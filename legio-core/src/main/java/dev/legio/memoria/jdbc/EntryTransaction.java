package dev.legio.memoria.jdbc;

import dev.legio.memoria.MemoryStorageException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * One transaction that changes memoria entries, on a pool connection of its own, holding the
 * entries it reads until it commits.
 *
 * <ul>
 *   <li>PostgreSQL: auto-commit off, read committed; the work locks what it reads with {@link
 *       #forUpdate} ({@code SELECT ... FOR UPDATE}), so another transaction changing the same entry
 *       waits for this one's commit and then reads its result.
 *   <li>SQLite: {@code BEGIN IMMEDIATE}, which takes the database's write lock before the first
 *       read (waiting up to the busy timeout for another writer), so the read and the write cannot
 *       interleave with any other process's write. (A deferred transaction that read first would
 *       fail to upgrade to a writer once another process had written.)
 * </ul>
 *
 * Work that finds another writer got in first (an entry inserted since it looked) throws {@link
 * Conflict}: the transaction is rolled back and the work run again, up to {@value #ATTEMPTS} times.
 * Any other failure rolls back and propagates; a {@link SQLException} becomes a {@link
 * MemoryStorageException} saying what failed and what to check.
 */
final class EntryTransaction {
  static final int ATTEMPTS = 20;

  /**
   * Work run inside the transaction; may be run more than once, so it touches only the database.
   */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Thrown by work that lost a race to insert: the transaction is run again. */
  static final class Conflict extends RuntimeException {
    Conflict() {
      super("another writer created the entry first", null, false, false);
    }
  }

  private final DataSource pool;
  private final String database;
  private final boolean postgres;

  EntryTransaction(DataSource pool, String database) {
    this.pool = pool;
    this.database = database;
    this.postgres = database.equals("postgres");
  }

  boolean postgres() {
    return postgres;
  }

  /** What locks the rows a SELECT reads until commit: {@code FOR UPDATE}, or nothing on SQLite. */
  String forUpdate() {
    return postgres ? " FOR UPDATE" : "";
  }

  <T> T run(String action, Work<T> work) {
    for (int attempt = 1; ; attempt++) {
      try (Connection connection = pool.getConnection()) {
        try {
          begin(connection);
          T result;
          try {
            result = work.run(connection);
            commit(connection);
          } catch (SQLException | RuntimeException e) {
            rollback(connection, e);
            throw e;
          }
          return result;
        } finally {
          if (postgres) {
            connection.setAutoCommit(true);
          }
        }
      } catch (Conflict e) {
        if (attempt >= ATTEMPTS) {
          throw new MemoryStorageException(
              action + " failed: other writers kept changing it; try again", e);
        }
      } catch (SQLException e) {
        throw failure(action, e);
      }
    }
  }

  private void begin(Connection connection) throws SQLException {
    if (postgres) {
      connection.setAutoCommit(false);
    } else {
      try (Statement s = connection.createStatement()) {
        s.execute("BEGIN IMMEDIATE");
      }
    }
  }

  private void commit(Connection connection) throws SQLException {
    if (postgres) {
      connection.commit();
    } else {
      try (Statement s = connection.createStatement()) {
        s.execute("COMMIT");
      }
    }
  }

  private void rollback(Connection connection, Exception failure) {
    try {
      if (postgres) {
        connection.rollback();
      } else {
        try (Statement s = connection.createStatement()) {
          s.execute("ROLLBACK");
        }
      }
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  MemoryStorageException failure(String action, SQLException e) {
    String hint =
        postgres
            ? "Check that the PostgreSQL server (praetorium.postgres_url in legio.toml) is"
                + " running and reachable, and that Legio's user may write its tables."
            : "Check that the praetorium file (praetorium.sqlite_path in legio.toml) is readable"
                + " and writable, and that no other program keeps it locked.";
    return new MemoryStorageException(
        action + " in the " + database + " database failed: " + e.getMessage() + ". " + hint, e);
  }
}
