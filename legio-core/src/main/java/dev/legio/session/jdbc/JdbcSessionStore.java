package dev.legio.session.jdbc;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.session.DamagedSession;
import dev.legio.session.HeldLeases;
import dev.legio.session.LeaseHolder;
import dev.legio.session.LeaseLostException;
import dev.legio.session.SessionListing;
import dev.legio.session.SessionRecord;
import dev.legio.session.SessionStore;
import dev.legio.session.SessionStoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * The session store on the message log's SQL database (SQLite or PostgreSQL), in the tables {@code
 * sessions} (one row per owner) and {@code session_leases} (one row per leased owner).
 *
 * <p>Every method is one short statement on a pool connection in auto-commit mode, so it needs no
 * transaction of its own and never waits for the log's writer longer than one of its commits (on
 * SQLite the busy timeout covers that wait).
 *
 * <p>{@link #tryLease} is an upsert whose update only happens when the lease is free or already the
 * caller's ({@code INSERT ... ON CONFLICT (owner) DO UPDATE ... WHERE session_leases.holder =
 * excluded.holder}); when that is refused, a second one takes a lease that has run out ({@code
 * WHERE session_leases.lease_until < now}), which is a takeover. Both databases report one changed
 * row when it inserted or updated and none when the condition refused the update, and both run it
 * atomically against other connections and processes (SQLite under its write lock, PostgreSQL by
 * locking the conflicting row), so the update count is the answer. A lease taken with a request
 * ({@link #appendAndTryLease}) tries the first in the request's transaction, the second after it.
 *
 * <p>A session's previous back-end ids ({@link SessionRecord#previousBackendSessionIds()}) are a
 * JSON array of strings in one column, NULL when there are none ({@link PreviousIds}). A row with a
 * value Legio does not write is a {@link DamagedSession} ({@link SessionRows#read}): left out of
 * {@link #list}, named by {@link #listing}, thrown by {@link #find}.
 *
 * <p>Timestamps are stored to the microsecond: anything finer is truncated, the same way on both
 * databases.
 */
public final class JdbcSessionStore implements SessionStore {
  private static final String SELECT = SessionRows.SELECT;

  private final DataSource pool;
  private final SharedWriter writer;
  private final SqlValues values;
  private final SessionRows rows;
  private final LeaseRows leases;
  private final LeaseUpkeep upkeep;

  /** Leases taken from another holder, gone or run out ({@link #leaseTakeovers}). */
  private final java.util.concurrent.atomic.AtomicLong takeovers =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * Who this store's leases are taken for and how they are kept.
   *
   * @param process the process recorded as holding the leases taken through this store
   * @param held where leases are registered while held (released at JVM exit)
   * @param heartbeatClock the clock renewals are dated by; null: leases are not renewed
   */
  public record LeaseUpkeep(LeaseHolder process, HeldLeases held, java.time.Clock heartbeatClock) {
    /** This process; released at exit; not renewed (tests that move a clock by hand). */
    public static LeaseUpkeep withoutHeartbeat() {
      return new LeaseUpkeep(LeaseHolder.thisProcess(), HeldLeases.shared(), null);
    }

    /** This process; released at exit; renewed while held, dated by {@code clock}. */
    public static LeaseUpkeep heartbeat(java.time.Clock clock) {
      return new LeaseUpkeep(
          LeaseHolder.thisProcess(), HeldLeases.shared(), Objects.requireNonNull(clock, "clock"));
    }
  }

  /**
   * @param pool connections to a database migrated with Legio's migrations, in auto-commit mode
   * @param values how that database stores ids and timestamps
   */
  public JdbcSessionStore(DataSource pool, SqlValues values) {
    this(pool, values, null);
  }

  /**
   * @param writer where writes run (the message log's writer, so that one connection writes the
   *     database); null: on pool connections in auto-commit mode
   */
  public JdbcSessionStore(DataSource pool, SqlValues values, SharedWriter writer) {
    this(pool, values, writer, LeaseUpkeep.withoutHeartbeat());
  }

  /**
   * @param upkeep who holds this store's leases, and whether they are renewed while held
   */
  public JdbcSessionStore(
      DataSource pool, SqlValues values, SharedWriter writer, LeaseUpkeep upkeep) {
    this.upkeep = Objects.requireNonNull(upkeep, "upkeep");
    this.writer = writer;
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.rows = new SessionRows(values, upkeep.process().host());
    this.leases = new LeaseRows(values, upkeep.process());
  }

  /** Stops renewing the leases taken through this store (its database is closing). */
  public void forgetHeldLeases() {
    upkeep.held().forget(this);
  }

  @Override
  public Optional<SessionRecord> find(String owner) {
    Objects.requireNonNull(owner, "owner");
    List<SessionRecord> found =
        query(
            "reading the session of '" + owner + "'",
            SELECT + " WHERE owner = ?",
            s -> s.setString(1, owner));
    return found.stream().findFirst();
  }

  @Override
  public Optional<dev.legio.session.ConversationHome> conversationHome(String owner) {
    Objects.requireNonNull(owner, "owner");
    try (Connection connection = pool.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT backend, backend_node FROM sessions"
                    + " WHERE owner = ? AND state = 'active' AND backend_node IS NOT NULL")) {
      statement.setString(1, owner);
      try (ResultSet row = statement.executeQuery()) {
        return row.next()
            ? Optional.of(
                new dev.legio.session.ConversationHome(row.getString(1), row.getString(2)))
            : Optional.empty();
      }
    } catch (SQLException e) {
      throw new SessionStoreException(
          "reading which node holds the session of '" + owner + "' failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void save(SessionRecord record) {
    Objects.requireNonNull(record, "record");
    update("saving the session of '" + record.owner() + "'", List.of(saveUpdate(record)));
  }

  @Override
  public void saveWhileLeased(SessionRecord record, String holder) {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(holder, "holder");
    update(
        "saving the session of '" + record.owner() + "' under the lease of '" + holder + "'",
        List.of(LeaseRows.guard(record.owner(), holder), saveUpdate(record)));
  }

  @Override
  public void saveAndReleaseLease(SessionRecord record, String holder) {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(holder, "holder");
    update(
        "saving the session of '"
            + record.owner()
            + "' and releasing its lease held by '"
            + holder
            + "'",
        List.of(saveUpdate(record), LeaseRows.release(record.owner(), holder)));
    upkeep.held().released(this, record.owner(), holder);
  }

  @Override
  public Message finishTurn(MessageLog log, NewMessage reply, SessionRecord record, String holder) {
    if (writer == null || !writer.writes(log)) {
      // The log is elsewhere: check the lease first (not atomic with the append, but a turn that
      // lost its lease long ago writes nothing).
      update(
          "checking the lease on the session of '" + record.owner() + "'",
          List.of(LeaseRows.guard(record.owner(), holder)));
      return SessionStore.super.finishTurn(log, reply, record, holder);
    }
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(holder, "holder");
    // A failure is the log's (MessageLogException), saying what went wrong, or a lost lease
    // (LeaseLostException); nothing landed.
    try {
      return writer
          .appendWith(
              reply,
              List.of(
                  LeaseRows.guard(record.owner(), holder),
                  saveUpdate(record),
                  LeaseRows.release(record.owner(), holder)))
          .message();
    } finally {
      upkeep.held().released(this, record.owner(), holder);
    }
  }

  private SharedWriter.Update saveUpdate(SessionRecord record) {
    return new SharedWriter.Update(SessionRows.SAVE, s -> rows.bind(s, record));
  }

  @Override
  public List<SessionRecord> list() {
    return listing().records();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Here: one query; a row {@link SessionRows#read} finds damaged is named, and the rows after
   * it are read all the same.
   */
  @Override
  public SessionListing listing() {
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(SELECT + " ORDER BY owner");
        ResultSet found = statement.executeQuery()) {
      return rows.readAll(found);
    } catch (SQLException e) {
      throw failure("listing the sessions", e);
    }
  }

  @Override
  public boolean delete(String owner) {
    Objects.requireNonNull(owner, "owner");
    return update(
            "deleting the session of '" + owner + "'",
            "DELETE FROM sessions WHERE owner = ?",
            s -> s.setString(1, owner))
        > 0;
  }

  @Override
  public void deleteWhileLeased(String owner, String holder) {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(holder, "holder");
    update(
        "deleting the session of '" + owner + "' under the lease of '" + holder + "'",
        List.of(
            LeaseRows.guard(owner, holder),
            new SharedWriter.Update(
                "DELETE FROM sessions WHERE owner = ?", s -> s.setString(1, owner))));
  }

  @Override
  public int deleteExpired(Instant now) {
    Objects.requireNonNull(now, "now");
    return update(
        "deleting the sessions that expired before " + now,
        "DELETE FROM sessions WHERE expires_at < ?",
        s -> values.bindTruncated(s, 1, now));
  }

  @Override
  public boolean tryLease(String owner, String holder, Instant now, Duration duration) {
    String action = "leasing the session of '" + owner + "' for '" + holder + "'";
    boolean taken =
        update(action, List.of(leases.take(LeaseRows.MINE, owner, holder, now, duration)))[0] == 1;
    if (!taken) {
      taken =
          update(action, List.of(leases.take(LeaseRows.RUN_OUT, owner, holder, now, duration)))[0]
                  == 1
              || releaseAbandonedLease(owner).isPresent()
                  && update(
                          action,
                          List.of(leases.take(LeaseRows.MINE, owner, holder, now, duration)))[0]
                      == 1;
      if (taken) {
        takeovers.incrementAndGet();
      }
    }
    if (taken) {
      held(owner, holder, duration);
    }
    return taken;
  }

  @Override
  public boolean renewLease(String owner, String holder, Instant now, Duration duration) {
    Objects.requireNonNull(now, "now");
    return update(
            "renewing the lease on the session of '" + owner + "' for '" + holder + "'",
            List.of(leases.renew(owner, holder, now.plus(duration))))[0]
        == 1;
  }

  /**
   * Registers a lease just taken: renewed while held (with a heartbeat clock), released at exit.
   */
  private void held(String owner, String holder, Duration duration) {
    java.time.Clock clock = upkeep.heartbeatClock();
    upkeep
        .held()
        .taken(
            this,
            owner,
            holder,
            clock == null ? null : HeldLeases.heartbeatFor(duration),
            new HeldLeases.Lease() {
              @Override
              public boolean renew() {
                Instant until = clock.instant().plus(duration);
                return update(
                        "renewing the lease on the session of '" + owner + "'",
                        List.of(leases.renew(owner, holder, until)))[0]
                    == 1;
              }

              @Override
              public void release() {
                update(
                    "releasing the lease on the session of '" + owner + "' at exit",
                    List.of(LeaseRows.release(owner, holder)));
              }
            });
  }

  /**
   * {@inheritDoc}
   *
   * <p>Here: the leases this store took from another holder, either after freeing them from a
   * holder found gone ({@link #releaseAbandonedLease}) or because the other holder's lease had run
   * out (its node died or paused for longer than the lease time). A lease taken when free, or
   * renewed by its own holder, is no takeover.
   */
  @Override
  public long leaseTakeovers() {
    return takeovers.get();
  }

  @Override
  public Optional<LeaseHolder> releaseAbandonedLease(String owner) {
    Objects.requireNonNull(owner, "owner");
    record Row(String holder, LeaseHolder process) {}
    List<Row> rows = new ArrayList<>(1);
    try (Connection connection = pool.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT holder, holder_host, holder_pid FROM session_leases WHERE owner = ?")) {
      statement.setString(1, owner);
      try (ResultSet row = statement.executeQuery()) {
        if (row.next()) {
          String host = row.getString(2);
          long pid = row.getLong(3);
          if (host != null && !row.wasNull()) {
            rows.add(new Row(row.getString(1), new LeaseHolder(host, pid)));
          }
        }
      }
    } catch (SQLException e) {
      throw failure("reading the lease on the session of '" + owner + "'", e);
    }
    if (rows.isEmpty() || !rows.get(0).process().isGone()) {
      return Optional.empty();
    }
    Row gone = rows.get(0);
    int freed =
        update(
            "freeing the lease on the session of '" + owner + "' held by " + gone.process(),
            List.of(LeaseRows.release(owner, gone.holder())))[0];
    return freed == 1 ? Optional.of(gone.process()) : Optional.empty();
  }

  @Override
  public LeasedRequest appendAndTryLease(
      MessageLog log,
      NewMessage message,
      String owner,
      String holder,
      Instant now,
      Duration duration) {
    if (writer == null || !writer.writes(log)) {
      return SessionStore.super.appendAndTryLease(log, message, owner, holder, now, duration);
    }
    SharedWriter.Update lease = leases.take(LeaseRows.MINE, owner, holder, now, duration);
    SharedWriter.Appended appended = writer.appendWith(message, List.of(lease));
    boolean leased = appended.counts()[0] == 1;
    if (!leased
        && update(
                "taking over the run-out lease on the session of '" + owner + "'",
                List.of(leases.take(LeaseRows.RUN_OUT, owner, holder, now, duration)))[0]
            == 1) {
      leased = true;
      takeovers.incrementAndGet();
    }
    if (leased) {
      held(owner, holder, duration);
    }
    return new LeasedRequest(appended.message(), leased);
  }

  @Override
  public Set<String> leasedOwners(Instant now) {
    Objects.requireNonNull(now, "now");
    Set<String> owners = new TreeSet<>();
    try (Connection connection = pool.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT owner, holder_host, holder_pid FROM session_leases"
                    + " WHERE lease_until >= ?")) {
      values.bindTruncated(statement, 1, now);
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          String host = rows.getString(2);
          long pid = rows.getLong(3);
          // A lease whose holder is gone is not worked on, whatever it says.
          if (host == null || rows.wasNull() || !new LeaseHolder(host, pid).isGone()) {
            owners.add(rows.getString(1));
          }
        }
      }
      return owners;
    } catch (SQLException e) {
      throw failure("listing the leased sessions", e);
    }
  }

  @Override
  public void releaseLease(String owner, String holder) {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(holder, "holder");
    try {
      update(
          "releasing the lease on the session of '" + owner + "' held by '" + holder + "'",
          List.of(LeaseRows.release(owner, holder)));
    } finally {
      upkeep.held().released(this, owner, holder);
    }
  }

  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private List<SessionRecord> query(String action, String sql, Binder binder) {
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      List<SessionRecord> result = new ArrayList<>();
      try (ResultSet found = statement.executeQuery()) {
        while (found.next()) {
          result.add(rows.read(found));
        }
      }
      return result;
    } catch (SQLException e) {
      throw failure(action, e);
    }
  }

  /** Runs one statement; returns the update count. */
  private int update(String action, String sql, SharedWriter.Binder binder) {
    return update(action, List.of(new SharedWriter.Update(sql, binder)))[0];
  }

  /** Runs the statements in one transaction; returns their update counts. */
  private int[] update(String action, List<SharedWriter.Update> updates) {
    if (writer != null) {
      try {
        return writer.executeUpdates(updates);
      } catch (LeaseLostException e) {
        throw e;
      } catch (RuntimeException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        throw failure(
            action,
            cause instanceof SQLException sql2 ? sql2 : new SQLException(e.getMessage(), e));
      }
    }
    try (Connection connection = pool.getConnection()) {
      return SharedWriter.inOneTransaction(connection, updates);
    } catch (SQLException e) {
      throw failure(action, e);
    }
  }

  private SessionStoreException failure(String action, SQLException e) {
    String hint =
        values.name().equals("sqlite")
            ? "Check that the praetorium file (praetorium.sqlite_path in legio.toml) is readable"
                + " and writable, and that no other program keeps it locked."
            : "Check that the PostgreSQL server (praetorium.postgres_url in legio.toml) is"
                + " running and reachable, and that Legio's user may write its tables.";
    return new SessionStoreException(
        action + " in the " + values.name() + " database failed: " + e.getMessage() + ". " + hint,
        e);
  }
}
