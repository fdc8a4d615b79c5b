package dev.legio.store;

import dev.legio.backend.http.ConversationStore;
import dev.legio.backend.http.jdbc.JdbcConversationStore;
import dev.legio.log.MessageLog;
import dev.legio.log.jdbc.JdbcDatabase;
import dev.legio.log.jdbc.JdbcMessageLog;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.session.SessionStore;
import dev.legio.session.jdbc.JdbcSessionStore;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.jdbc.JdbcUsageLedger;
import java.time.Clock;

/**
 * Everything Legio keeps in its database, opened once: the {@link MessageLog}, the {@link
 * SessionStore}, the {@link ConversationStore} (conversations of the HTTP back-ends) and the {@link
 * UsageLedger}, sharing one SQLite file or PostgreSQL database, its connection pool and its
 * migrations. Several processes may open the same database; the log's sequence numbers and the
 * session leases hold between them.
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

  private LegioStore(JdbcDatabase database, long maxTextBytes, Clock clock) {
    this.database = database;
    this.messageLog = database.openMessageLog(maxTextBytes, clock);
    // Session writes go through the log's writer: one connection writes the database.
    // Leases are renewed while held (a heartbeat) and released when the process exits.
    this.sessions =
        new JdbcSessionStore(
            database.pool(),
            database.values(),
            messageLog.sharedWriter(),
            JdbcSessionStore.LeaseUpkeep.heartbeat(clock));
    this.conversations =
        new JdbcConversationStore(database.pool(), database.values(), messageLog.sharedWriter());
    this.usage = new JdbcUsageLedger(database.pool(), database.values(), messageLog.sharedWriter());
  }

  /** Opens (creating and migrating if needed) the SQLite database {@code options.file()}. */
  public static LegioStore openSqlite(JdbcMessageLogs.SqliteOptions options) {
    return new LegioStore(
        JdbcDatabase.openSqlite(options), options.maxTextBytes(), options.clock());
  }

  /** Opens (migrating if needed) the PostgreSQL database {@code options.url()} names. */
  public static LegioStore openPostgres(JdbcMessageLogs.PostgresOptions options) {
    return new LegioStore(
        JdbcDatabase.openPostgres(options), options.maxTextBytes(), options.clock());
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

  /** The conversations Legio holds for the HTTP back-ends. */
  public ConversationStore conversations() {
    return conversations;
  }

  /** The usage ledger: one row per turn of every session. */
  public UsageLedger usage() {
    return usage;
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
