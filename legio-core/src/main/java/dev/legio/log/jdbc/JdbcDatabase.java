package dev.legio.log.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * One opened Legio database, SQLite or PostgreSQL, with its whole schema migrated (Flyway, {@code
 * db/migration/<dialect>}): the message log's tables and the session tables. It holds the
 * connection pool, which serves the log's reads and other stores' short statements (in auto-commit
 * mode), and the data source the log's writer takes its one connection from. Several stores share
 * one database; closing it closes the pool.
 */
public final class JdbcDatabase implements Closeable {
  private final Dialect dialect;

  /** The application_name of this process's PostgreSQL connections: {@code legio/PID}. */
  static final String APPLICATION_NAME = "legio/" + ProcessHandle.current().pid();

  private final HikariDataSource pool;
  private final DataSource writes;

  private DatabaseFileWatch fileWatch;

  /** The versions of the migrations this build knows, read once (see {@link #health}). */
  private volatile List<String> knownVersions;

  /**
   * How the database is, for a readiness check: {@code unreachable} is null when a query answered
   * (else why not), {@code pendingMigrations} the versions this build knows that are not applied,
   * {@code writerProblem} null when the log's writer can write (else why not: {@link
   * JdbcMessageLog#writerProblem}).
   */
  public record Health(String unreachable, List<String> pendingMigrations, String writerProblem) {
    public Health(String unreachable, List<String> pendingMigrations) {
      this(unreachable, pendingMigrations, null);
    }

    /** This health, with what keeps the writer from writing (null: nothing). */
    public Health withWriterProblem(String problem) {
      return new Health(unreachable, pendingMigrations, problem);
    }
  }

  private JdbcDatabase(Dialect dialect, HikariDataSource pool, DataSource writes) {
    this.dialect = dialect;
    this.pool = pool;
    this.writes = writes;
  }

  public static JdbcDatabase openSqlite(JdbcMessageLogs.SqliteOptions options) {
    Path file = options.file().toAbsolutePath();
    SqliteMigrations.requireDatabaseFile(file);
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw new MessageLogException(
          "cannot create the folder for " + file + ": " + e.getMessage(), e);
    }
    try {
      // The praetorium holds every conversation: a new one is its owner's only (0600), and
      // SQLite gives its -wal and -shm files the database file's permissions.
      dev.legio.files.OwnerOnly.createFileIfMissing(file);
    } catch (IOException e) {
      // a folder that cannot be written: the check below says so
    }
    SqliteAccess.requireWritable(file, SqliteAccess.writable(file));
    String url = "jdbc:sqlite:" + file;
    // Several processes opening a new workspace at once migrate one after the other.
    SqliteMigrations.serialised(
        file,
        () ->
            migrate(
                Flyway.configure().dataSource(sqliteDataSource(url, options, false)),
                "sqlite",
                file));

    HikariDataSource pool =
        pool(
            "legio-sqlite-readers", sqliteDataSource(url, options, true), options.readers(), false);
    JdbcDatabase database =
        new JdbcDatabase(new SqliteDialect(), pool, sqliteDataSource(url, options, true));
    database.fileWatch = DatabaseFileWatch.of(file);
    return database;
  }

  /**
   * Opens the SQLite database for a command that only reads it: read-only, without the migration
   * lock or a migration, when its schema is current; else as {@link #openSqlite} does, or refused
   * when it cannot be written (see {@link SqliteAccess}). Writes through it fail.
   */
  public static JdbcDatabase openSqliteForReading(JdbcMessageLogs.SqliteOptions options) {
    Path file = options.file().toAbsolutePath();
    SqliteMigrations.requireDatabaseFile(file);
    boolean writable = SqliteAccess.writable(file);
    if (!Files.isRegularFile(file)) {
      return openSqlite(options);
    }
    SQLiteDataSource reads = readOnlySqliteDataSource(SqliteAccess.readingUrl(file, writable));
    List<String> pending;
    try {
      pending =
          java.util.Arrays.stream(
                  Flyway.configure()
                      .dataSource(reads)
                      .locations("classpath:db/migration/sqlite")
                      .load()
                      .info()
                      .pending())
              .map(m -> m.getVersion() == null ? m.getScript() : "V" + m.getVersion())
              .toList();
    } catch (FlywayException e) {
      // Not a Legio database, or a damaged one: opening it to write says which, or refuses.
      if (writable) {
        return openSqlite(options);
      }
      throw SqliteAccess.needsMigrating(file, List.of());
    }
    if (!pending.isEmpty()) {
      if (writable) {
        return openSqlite(options);
      }
      throw SqliteAccess.needsMigrating(file, pending);
    }
    HikariDataSource pool = pool("legio-sqlite-readers", reads, options.readers(), true);
    JdbcDatabase database = new JdbcDatabase(new SqliteDialect(), pool, reads);
    database.fileWatch = DatabaseFileWatch.of(file);
    return database;
  }

  public static JdbcDatabase openPostgres(JdbcMessageLogs.PostgresOptions options) {
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
    // Connections are opened as they are needed, not all at start: a process holds what it uses.
    config.setMinimumIdle(1);
    config.addDataSourceProperty("reWriteBatchedInserts", "true");
    PostgresDialect.socketTimeoutFor(options.url())
        .ifPresent(
            seconds -> config.addDataSourceProperty("socketTimeout", String.valueOf(seconds)));
    // Which process holds a connection shows in pg_stat_activity.
    config.addDataSourceProperty("ApplicationName", APPLICATION_NAME);
    // The transactions some stores run on pooled connections hold rows too (see the dialect).
    config.setConnectionInitSql(PostgresDialect.IDLE_IN_TRANSACTION_LIMIT);
    config.setConnectionTimeout(10_000);
    HikariDataSource pool;
    String where = redact(options.url());
    try {
      pool =
          ConnectionExhaustion.retrying(
              where, ConnectionExhaustion.PATIENCE, () -> new HikariDataSource(config));
    } catch (MessageLogException e) {
      throw e;
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
      ConnectionExhaustion.retrying(
          where,
          ConnectionExhaustion.PATIENCE,
          () -> {
            migrate(
                Flyway.configure().dataSource(options.url(), options.user(), options.password()),
                "postgres",
                where);
            return null;
          });
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
    writes.setApplicationName(APPLICATION_NAME);
    PostgresDialect.socketTimeoutFor(options.url()).ifPresent(writes::setSocketTimeout);
    return new JdbcDatabase(
        new PostgresDialect(), pool, ConnectionExhaustion.patient(writes, where));
  }

  /**
   * Whether the database file was deleted or replaced since it was opened (SQLite; never for
   * PostgreSQL): see {@link DatabaseFileWatch}.
   */
  public Optional<String> fileProblem() {
    return fileWatch == null ? Optional.empty() : fileWatch.problem();
  }

  /**
   * Queries the database now: whether it answers, and which of this build's migrations it lacks
   * (none after a successful open, unless the database was restored from an older copy). A database
   * migrated further by a newer Legio is current: migrations are forward-compatible.
   */
  public Health health() {
    java.util.Set<String> applied = new java.util.HashSet<>();
    try (java.sql.Connection connection = pool.getConnection();
        java.sql.Statement statement = connection.createStatement();
        java.sql.ResultSet rows =
            statement.executeQuery(
                "SELECT version FROM flyway_schema_history WHERE success AND version IS NOT"
                    + " NULL")) {
      while (rows.next()) {
        applied.add(rows.getString(1));
      }
    } catch (java.sql.SQLException | RuntimeException e) {
      return new Health(rootMessage(e), List.of());
    }
    List<String> pending =
        knownVersions().stream().filter(v -> !applied.contains(v)).map(v -> "V" + v).toList();
    return new Health(null, pending);
  }

  private List<String> knownVersions() {
    List<String> known = knownVersions;
    if (known == null) {
      known =
          java.util.Arrays.stream(
                  Flyway.configure()
                      .dataSource(pool)
                      .locations("classpath:db/migration/" + dialect.name())
                      .load()
                      .info()
                      .all())
              .filter(m -> m.getVersion() != null && m.getState().isResolved())
              .map(m -> m.getVersion().getVersion())
              .toList();
      knownVersions = known;
    }
    return known;
  }

  /** Connections in auto-commit mode, for reads and short single-statement writes. */
  public DataSource pool() {
    return pool;
  }

  /**
   * Reports the pool's figures (connections active, idle, pending; acquire and usage times) to
   * {@code factory}'s tracker: HikariCP's own seam, so the core needs no metrics library. Once per
   * database; a second call fails ({@link IllegalStateException}).
   */
  public void meterPool(MetricsTrackerFactory factory) {
    pool.setMetricsTrackerFactory(factory);
  }

  /** How this database stores ids and timestamps. */
  public SqlValues values() {
    return dialect;
  }

  /**
   * A message log on this database. Closing the log stops its writer; the database stays open until
   * it is closed itself.
   */
  public JdbcMessageLog openMessageLog(long maxTextBytes, Clock clock) {
    return new JdbcMessageLog(
        dialect, pool, writes, this::fileProblem, List.of(), maxTextBytes, clock);
  }

  /** A message log that closes this database when it is closed. */
  MessageLog openOwningMessageLog(long maxTextBytes, Clock clock) {
    return new JdbcMessageLog(
        dialect, pool, writes, this::fileProblem, List.of(this), maxTextBytes, clock);
  }

  /** Closes the pool (idempotent). Close the stores on this database first. */
  @Override
  public void close() {
    pool.close();
  }

  private static SQLiteDataSource sqliteDataSource(
      String url, JdbcMessageLogs.SqliteOptions options, boolean foreignKeys) {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(
        options.fullSync()
            ? SQLiteConfig.SynchronousMode.FULL
            : SQLiteConfig.SynchronousMode.NORMAL);
    config.enforceForeignKeys(foreignKeys);
    return dataSource(config, url);
  }

  /** Connections that only read (SQLite's read-only open flag): a write fails. */
  private static SQLiteDataSource readOnlySqliteDataSource(String url) {
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    return dataSource(config, url);
  }

  /**
   * The size SQLite cuts its write-ahead log file back to once a checkpoint has copied it into the
   * database: 64 MiB. Without a limit the {@code -wal} file keeps the size of the largest
   * transaction ever written (a {@code legio log import} or a prune of a year: gigabytes) until the
   * last connection closes, which on a server is never. 64 MiB lies above the ~40 MB the writer
   * lets the log grow to between checkpoints ({@code wal_autocheckpoint = 10000} pages, {@link
   * SqliteDialect#configureWriter}), so an ordinary day never truncates and re-grows the file.
   */
  static final long SQLITE_JOURNAL_SIZE_LIMIT = 64L << 20;

  /**
   * {@code config} with the busy wait, memory map and write-ahead log limit every connection has,
   * for {@code url}.
   */
  private static SQLiteDataSource dataSource(SQLiteConfig config, String url) {
    config.setBusyTimeout(10_000);
    config.setPragma(
        SQLiteConfig.Pragma.JOURNAL_SIZE_LIMIT, String.valueOf(SQLITE_JOURNAL_SIZE_LIMIT));
    // Readers map the file instead of copying pages through read() calls.
    config.setPragma(SQLiteConfig.Pragma.MMAP_SIZE, String.valueOf(256L << 20));
    SQLiteDataSource dataSource = new SQLiteDataSource(config);
    dataSource.setUrl(url);
    return dataSource;
  }

  private static HikariDataSource pool(
      String name, DataSource dataSource, int size, boolean readOnly) {
    HikariConfig config = new HikariConfig();
    // A read-only SQLite connection refuses to be told it is read-write, as HikariCP otherwise
    // does.
    config.setReadOnly(readOnly);
    config.setPoolName(name);
    config.setDataSource(dataSource);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    // Pool connections write too (the session store's statements). A connection checkpoints the
    // write-ahead log after its own commits once it is this many pages long: the same threshold
    // as the log's writer (see SqliteDialect.configureWriter), so a session save does not stall
    // on a checkpoint the writer would have deferred.
    config.setConnectionInitSql("PRAGMA wal_autocheckpoint = 10000");
    return new HikariDataSource(config);
  }

  private static void migrate(FluentConfiguration flyway, String dialect, Object where) {
    if (where instanceof Path file && SqliteMigrations.isForeign(file)) {
      throw new MessageLogException(
          "cannot open the message log at "
              + file
              + ": it is a database of another program (it holds tables, but not Legio's). This"
              + " file is not a Legio praetorium.db: move it aside or set praetorium.sqlite_path"
              + " in legio.toml.");
    }
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
              + (!(where instanceof Path file)
                  ? ""
                  : SqliteMigrations.isForeign(file)
                      ? ". This file is not a Legio praetorium.db: move it aside or set"
                          + " praetorium.sqlite_path in legio.toml."
                      : SqliteMigrations.isDamaged(e)
                          ? ". The file is damaged: restore it from a backup, or move it aside"
                              + " (a new one starts empty)."
                          : ". It is a Legio database: try again; if it keeps failing, see the"
                              + " log file."),
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
