package dev.legio.log.jdbc;

import dev.legio.log.MessageLog;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Opens a {@link MessageLog} on SQLite or PostgreSQL, migrating its schema first. To share the
 * database with the session store, open a {@code dev.legio.store.LegioStore} instead.
 */
public final class JdbcMessageLogs {
  private JdbcMessageLogs() {}

  /**
   * Options for the SQLite store.
   *
   * @param file the database file (created with its folder if missing)
   * @param fullSync false: a commit survives a kill of the process (WAL, synchronous=NORMAL); true:
   *     it also survives a power cut (synchronous=FULL, an fsync per commit)
   * @param readers pool connections, for concurrent reads and the session store's statements
   */
  public record SqliteOptions(
      Path file, long maxTextBytes, boolean fullSync, int readers, Clock clock) {}

  /**
   * Options for the PostgreSQL store.
   *
   * @param url a JDBC URL, {@code jdbc:postgresql://host:5432/db}; a {@code currentSchema}
   *     parameter puts the tables in that schema
   * @param password may be null (trust or pgpass authentication, or a password in the URL)
   * @param poolSize pool connections, for concurrent reads and the session store's statements (the
   *     log's writer has one more of its own)
   */
  public record PostgresOptions(
      String url, String user, String password, long maxTextBytes, int poolSize, Clock clock) {}

  /** Opens the log on SQLite; closing the log closes the database. */
  public static MessageLog openSqlite(SqliteOptions options) {
    return JdbcDatabase.openSqlite(options)
        .openOwningMessageLog(options.maxTextBytes(), options.clock());
  }

  /** Opens the log on PostgreSQL; closing the log closes the database. */
  public static MessageLog openPostgres(PostgresOptions options) {
    return JdbcDatabase.openPostgres(options)
        .openOwningMessageLog(options.maxTextBytes(), options.clock());
  }
}
