package dev.legio.log.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/** Opens a {@link MessageLog} on SQLite or PostgreSQL, migrating its schema first. */
public final class JdbcMessageLogs {
  private JdbcMessageLogs() {}

  /**
   * Options for the SQLite store.
   *
   * @param file the database file (created with its folder if missing)
   * @param fullSync false: a commit survives a kill of the process (WAL, synchronous=NORMAL); true:
   *     it also survives a power cut (synchronous=FULL, an fsync per commit)
   * @param readers connections for concurrent reads
   */
  public record SqliteOptions(
      Path file, long maxTextBytes, boolean fullSync, int readers, Clock clock) {}

  /**
   * Options for the PostgreSQL store.
   *
   * @param url a JDBC URL, {@code jdbc:postgresql://host:5432/db}; a {@code currentSchema}
   *     parameter puts the tables in that schema
   * @param password may be null (trust or pgpass authentication, or a password in the URL)
   */
  public record PostgresOptions(
      String url, String user, String password, long maxTextBytes, int poolSize, Clock clock) {}

  public static MessageLog openSqlite(SqliteOptions options) {
    Path file = options.file().toAbsolutePath();
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw new MessageLogException(
          "cannot create the folder for " + file + ": " + e.getMessage(), e);
    }
    String url = "jdbc:sqlite:" + file;
    migrate(
        Flyway.configure().dataSource(sqliteDataSource(url, options, false)),
        "sqlite",
        file.toString());

    HikariDataSource reads =
        pool("legio-sqlite-readers", sqliteDataSource(url, options, true), options.readers());
    return new JdbcMessageLog(
        new SqliteDialect(),
        reads,
        sqliteDataSource(url, options, true),
        List.of(reads),
        options.maxTextBytes(),
        options.clock());
  }

  public static MessageLog openPostgres(PostgresOptions options) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("legio-postgres");
    config.setJdbcUrl(options.url());
    if (options.user() != null) {
      config.setUsername(options.user());
    }
    if (options.password() != null) {
      config.setPassword(options.password());
    }
    config.setMaximumPoolSize(options.poolSize());
    config.addDataSourceProperty("reWriteBatchedInserts", "true");
    config.setConnectionTimeout(10_000);
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw new MessageLogException(
          "cannot connect to PostgreSQL at "
              + redact(options.url())
              + ": "
              + rootMessage(e)
              + ". Check that the server is running and that praetorium.postgres_url in"
              + " legio.toml (or LEGIO_DB_URL) is right.",
          e);
    }
    try {
      // Flyway takes connections of its own (it holds one for its lock while migrating with
      // another), so it must not compete with a small pool.
      migrate(
          Flyway.configure().dataSource(options.url(), options.user(), options.password()),
          "postgres",
          redact(options.url()));
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    // The writer holds one connection of its own for as long as the log is open.
    PGSimpleDataSource writes = new PGSimpleDataSource();
    writes.setURL(options.url());
    if (options.user() != null) {
      writes.setUser(options.user());
    }
    if (options.password() != null) {
      writes.setPassword(options.password());
    }
    return new JdbcMessageLog(
        new PostgresDialect(),
        pool,
        writes,
        List.of(pool),
        options.maxTextBytes(),
        options.clock());
  }

  private static SQLiteDataSource sqliteDataSource(
      String url, SqliteOptions options, boolean foreignKeys) {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(
        options.fullSync()
            ? SQLiteConfig.SynchronousMode.FULL
            : SQLiteConfig.SynchronousMode.NORMAL);
    config.enforceForeignKeys(foreignKeys);
    config.setBusyTimeout(10_000);
    // Readers map the file instead of copying pages through read() calls.
    config.setPragma(SQLiteConfig.Pragma.MMAP_SIZE, String.valueOf(256L << 20));
    SQLiteDataSource dataSource = new SQLiteDataSource(config);
    dataSource.setUrl(url);
    return dataSource;
  }

  private static HikariDataSource pool(String name, DataSource dataSource, int size) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setDataSource(dataSource);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    return new HikariDataSource(config);
  }

  private static void migrate(FluentConfiguration flyway, String dialect, String where) {
    try {
      flyway
          .locations("classpath:db/migration/" + dialect)
          .baselineOnMigrate(true)
          .baselineVersion("0")
          .load()
          .migrate();
    } catch (FlywayException e) {
      throw new MessageLogException(
          "cannot open the message log at "
              + where
              + ": "
              + rootMessage(e)
              + (dialect.equals("sqlite")
                  ? ". If this file is not a Legio praetorium.db, move it aside or set"
                      + " praetorium.sqlite_path in legio.toml."
                  : ""),
          e);
    }
  }

  /** The URL without a password parameter, for messages and logs. */
  static String redact(String url) {
    return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
