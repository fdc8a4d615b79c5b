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
      database = PostgresTestDatabase.migrated();
    }
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 1 << 20, 4, clock));
  }

  /**
   * A store on this test's schema whose connections go through {@code proxy} (see {@link
   * #proxyToServer}), so that the test can cut them off.
   */
  public LegioStore openThrough(TcpProxy proxy, MutableClock clock) {
    if (database == null) {
      database = PostgresTestDatabase.migrated();
    }
    String url = SERVER.matcher(database.url()).replaceFirst("//127.0.0.1:" + proxy.port() + "/");
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(url, null, null, 1 << 20, 4, clock));
  }

  /** A proxy to the test PostgreSQL server ({@link PostgresTestDatabase#baseUrl()}). */
  public static TcpProxy proxyToServer() {
    java.util.regex.Matcher m = SERVER.matcher(PostgresTestDatabase.baseUrl());
    if (!m.find()) {
      throw new IllegalStateException("no host in " + PostgresTestDatabase.baseUrl());
    }
    return new TcpProxy(m.group(1), m.group(2) == null ? 5432 : Integer.parseInt(m.group(2)));
  }

  /** The server part of a PostgreSQL JDBC URL: {@code //host:port/}. */
  private static final java.util.regex.Pattern SERVER =
      java.util.regex.Pattern.compile("//([^/:?]+)(?::(\\d+))?/");

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
