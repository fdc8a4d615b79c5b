package dev.legio.testing;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;

/**
 * The PostgreSQL stores of one test: a throw-away schema made when the first store is opened, every
 * later store (a restart, another process) opened on the same schema, and the schema dropped by
 * {@link #close}. For the PostgreSQL side of a contract whose SQLite side opens a file.
 */
public final class PostgresStores implements AutoCloseable {
  private PostgresTestDatabase database;

  /** A store on this test's schema (1 MiB messages, a pool of 4). */
  public LegioStore open(MutableClock clock) {
    if (database == null) {
      database = PostgresTestDatabase.create();
    }
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 1 << 20, 4, clock));
  }

  /** The JDBC URL of this test's schema; a store must have been opened first. */
  public String url() {
    if (database == null) {
      throw new IllegalStateException("no store opened yet");
    }
    return database.url();
  }

  /** Drops the schema, if one was made. */
  @Override
  public void close() {
    if (database != null) {
      database.close();
      database = null;
    }
  }
}
