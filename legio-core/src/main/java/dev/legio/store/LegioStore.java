package dev.legio.store;

import dev.legio.backend.http.ConversationStore;
import dev.legio.backend.http.jdbc.JdbcConversationStore;
import dev.legio.delivery.DeliveryLedger;
import dev.legio.delivery.jdbc.JdbcDeliveryLedger;
import dev.legio.log.MessageLog;
import dev.legio.log.jdbc.JdbcDatabase;
import dev.legio.log.jdbc.JdbcMessageLog;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.memoria.MemoryStore;
import dev.legio.memoria.jdbc.JdbcMemoryStore;
import dev.legio.session.SessionStore;
import dev.legio.session.jdbc.JdbcSessionStore;
import dev.legio.task.TaskSessionStore;
import dev.legio.task.jdbc.JdbcTaskSessionStore;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.jdbc.JdbcUsageLedger;
import java.time.Clock;

/**
 * Everything Legio keeps in its database, opened once: the {@link MessageLog}, the {@link
 * SessionStore}, the {@link ConversationStore} (conversations of the HTTP back-ends), the {@link
 * UsageLedger} and memoria's database store ({@link #memoria()}), sharing one SQLite file or
 * PostgreSQL database, its connection pool and its migrations. Several processes may open the same
 * database; the log's sequence numbers and the session leases hold between them.
 *
 * <p>Close the store, not its parts: closing the store stops the log's writer and then closes the
 * pool, after which neither part may be used. (Closing {@link #messageLog()} alone only stops its
 * writer.)
 */
public final class LegioStore implements AutoCloseable {
  private final JdbcDatabase database;
  private final JdbcMessageLog messageLog;
  private final JdbcSessionStore sessions;
  private final java.util.List<JdbcSessionStore> otherSessions =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  private final ConversationStore conversations;
  private final UsageLedger usage;
  private final MemoryStore memoria;
  private final DeliveryLedger deliveries;
  private final TaskSessionStore tasks;
  private final dev.legio.store.gateway.GatewayStateStore gatewayState;
  private final dev.legio.store.gateway.GatewayInbox gatewayInbox;

  private final dev.legio.session.LeaseHolder process;
  private final NodeDirectory nodes;

  private LegioStore(
      JdbcDatabase database,
      long maxTextBytes,
      Clock clock,
      dev.legio.session.LeaseHolder process) {
    this.database = database;
    this.process = process;
    this.messageLog = database.openMessageLog(maxTextBytes, clock);
    // Session writes go through the log's writer: one connection writes the database.
    // Leases are renewed while held (a heartbeat) and released when the process exits.
    this.sessions =
        new JdbcSessionStore(
            database.pool(),
            database.values(),
            messageLog.sharedWriter(),
            new JdbcSessionStore.LeaseUpkeep(
                process, dev.legio.session.HeldLeases.shared(), clock));
    this.conversations =
        new JdbcConversationStore(database.pool(), database.values(), messageLog.sharedWriter());
    this.usage = new JdbcUsageLedger(database.pool(), database.values(), messageLog.sharedWriter());
    this.memoria = new JdbcMemoryStore(database.pool(), database.values());
    this.deliveries = new JdbcDeliveryLedger(database.values(), messageLog.sharedWriter());
    this.tasks =
        new JdbcTaskSessionStore(
            database.pool(), database.values(), messageLog.sharedWriter(), process.host());
    this.nodes = new NodeDirectory(database.pool(), database.values(), messageLog.sharedWriter());
    this.gatewayState =
        new dev.legio.store.gateway.GatewayStateStore(
            database.pool(), database.values(), messageLog.sharedWriter());
    this.gatewayInbox =
        new dev.legio.store.gateway.GatewayInbox(
            database.pool(), database.values(), messageLog.sharedWriter());
  }

  /** Opens (creating and migrating if needed) the SQLite database {@code options.file()}. */
  public static LegioStore openSqlite(JdbcMessageLogs.SqliteOptions options) {
    return openSqlite(options, dev.legio.session.LeaseHolder.thisProcess());
  }

  /**
   * Opens the SQLite database, as {@code process} (the node recorded with leases and with the
   * sessions whose turns it runs).
   */
  public static LegioStore openSqlite(
      JdbcMessageLogs.SqliteOptions options, dev.legio.session.LeaseHolder process) {
    return new LegioStore(
        JdbcDatabase.openSqlite(options), options.maxTextBytes(), options.clock(), process);
  }

  /**
   * Opens the SQLite database for a command that only reads it, as {@code process}: read-only when
   * its schema is current, so that a read-only workspace (or a backup) can be read; see {@link
   * JdbcDatabase#openSqliteForReading}. Writes through this store fail.
   */
  public static LegioStore openSqliteForReading(
      JdbcMessageLogs.SqliteOptions options, dev.legio.session.LeaseHolder process) {
    return new LegioStore(
        JdbcDatabase.openSqliteForReading(options),
        options.maxTextBytes(),
        options.clock(),
        process);
  }

  /** Opens (migrating if needed) the PostgreSQL database {@code options.url()} names. */
  public static LegioStore openPostgres(JdbcMessageLogs.PostgresOptions options) {
    return openPostgres(options, dev.legio.session.LeaseHolder.thisProcess());
  }

  /** Opens the PostgreSQL database, as {@code process} (see {@link #openSqlite}). */
  public static LegioStore openPostgres(
      JdbcMessageLogs.PostgresOptions options, dev.legio.session.LeaseHolder process) {
    return new LegioStore(
        JdbcDatabase.openPostgres(options), options.maxTextBytes(), options.clock(), process);
  }

  /** The node this store records with leases and sessions. */
  public String node() {
    return process.host();
  }

  /** The live nodes of {@code legio serve} and where their APIs answer. */
  public NodeDirectory nodes() {
    return nodes;
  }

  public MessageLog messageLog() {
    return messageLog;
  }

  public SessionStore sessions() {
    return sessions;
  }

  /**
   * Another session store on this database whose leases are taken for {@code upkeep}'s process and
   * kept as it says (tests: a holder that has died, a heartbeat driven by hand).
   */
  public SessionStore sessionsAs(JdbcSessionStore.LeaseUpkeep upkeep) {
    JdbcSessionStore other =
        new JdbcSessionStore(database.pool(), database.values(), messageLog.sharedWriter(), upkeep);
    otherSessions.add(other);
    return other;
  }

  /**
   * What went wrong with the database file since it was opened, if anything: a SQLite file deleted
   * or replaced under a running process (see {@link dev.legio.log.jdbc.DatabaseFileWatch}).
   */
  public java.util.Optional<String> fileProblem() {
    return database.fileProblem();
  }

  /**
   * Reports the connection pool's figures to {@code factory}'s tracker (HikariCP's metrics seam;
   * the application passes Micrometer's). Once per store.
   */
  public void meterPool(com.zaxxer.hikari.metrics.MetricsTrackerFactory factory) {
    database.meterPool(factory);
  }

  /**
   * The database's own clock, read on a pool connection ({@code SELECT clock_timestamp()} on
   * PostgreSQL; on SQLite the machine's clock, which every process on the file shares): what {@link
   * DatabaseAlignedClock} measures this node's clock against.
   */
  public DatabaseAlignedClock.DatabaseTime databaseTime() {
    boolean sqlite = database.values().name().equals("sqlite");
    String query =
        sqlite ? "SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')" : "SELECT clock_timestamp()";
    return () -> {
      try (java.sql.Connection connection = database.pool().getConnection();
          java.sql.Statement statement = connection.createStatement();
          java.sql.ResultSet row = statement.executeQuery(query)) {
        row.next();
        return sqlite
            ? java.time.Instant.parse(row.getString(1))
            : row.getObject(1, java.time.OffsetDateTime.class).toInstant();
      }
    };
  }

  /** The leases of singleton background jobs ({@link dev.legio.session.SingletonJobs}). */
  public dev.legio.session.JobLeases jobLeases() {
    return jobLeasesAs(process);
  }

  /** The job leases, taken as held by {@code process} (tests: a holder that has died). */
  public dev.legio.session.JobLeases jobLeasesAs(dev.legio.session.LeaseHolder process) {
    return new dev.legio.session.jdbc.JdbcJobLeases(
        database.pool(), database.values(), messageLog.sharedWriter(), process);
  }

  /**
   * When each background job last completed a run ({@link dev.legio.session.JobRuns}): the daily
   * cleanup's catch-up reads it.
   */
  public dev.legio.session.JobRuns jobRuns() {
    return new dev.legio.session.jdbc.JdbcJobRuns(
        database.pool(), database.values(), messageLog.sharedWriter());
  }

  /**
   * Whether the database answers now, has every migration of this build, and takes the log writer's
   * writes (readiness).
   */
  public JdbcDatabase.Health health() {
    return database.health().withWriterProblem(messageLog.writerProblem().orElse(null));
  }

  /** The conversations Legio holds for the HTTP back-ends. */
  public ConversationStore conversations() {
    return conversations;
  }

  /** The usage ledger: one row per turn of every session. */
  public UsageLedger usage() {
    return usage;
  }

  /**
   * Memoria (edicta, acta, commentarii) in this database, for {@code [memoria] store = "database"}:
   * every process on the database sees every change once it commits.
   */
  public MemoryStore memoria() {
    return memoria;
  }

  /** The platform events the chat gateways have taken in (de-duplication of retries). */
  public DeliveryLedger deliveries() {
    return deliveries;
  }

  /** The records of task sessions: one per (session key, agent). */
  public TaskSessionStore tasks() {
    return tasks;
  }

  /** The chat gateways' offsets, owed replies, poller leases and health. */
  public dev.legio.store.gateway.GatewayStateStore gatewayState() {
    return gatewayState;
  }

  /** The messages the webhook gateways took in and still owe a turn. */
  public dev.legio.store.gateway.GatewayInbox gatewayInbox() {
    return gatewayInbox;
  }

  /** Stops the log's writer (after its queued writes), then closes the pool. Idempotent. */
  @Override
  public void close() {
    sessions.forgetHeldLeases();
    otherSessions.forEach(JdbcSessionStore::forgetHeldLeases);
    try {
      messageLog.close();
    } finally {
      database.close();
    }
  }
}
