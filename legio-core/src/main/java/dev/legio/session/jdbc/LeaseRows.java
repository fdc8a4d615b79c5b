package dev.legio.session.jdbc;

import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.session.LeaseHolder;
import dev.legio.session.LeaseLostException;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How a session lease is a row of {@code session_leases}: the upserts that take one, the statement
 * that renews it, the one that gives it up, and the guard that lets a transaction write only while
 * a holder holds its lease.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #MINE} takes a lease that is free or already the caller's; {@link #RUN_OUT} takes
 *       another holder's that has run out (a takeover). Each changes one row when it took the lease
 *       and none when its condition refused it, atomically on both databases.
 *   <li>A lease lasts a positive time; a zero or negative one is refused before anything is sent.
 *   <li>{@link #guard} changes nothing, but run first in a transaction it aborts the transaction
 *       with {@link LeaseLostException} when the holder no longer holds the lease, checked on the
 *       transaction's own connection, so no other writer slips in between the check and the writes
 *       after it. Other stores on the same database run it before a write that must hold a session
 *       lease (the record of a task session, {@code JdbcTaskSessionStore}).
 * </ul>
 */
public final class LeaseRows {
  /** The lease upsert, updating only a lease that is {@link #MINE} or {@link #RUN_OUT}. */
  private static final String LEASE =
      "INSERT INTO session_leases (owner, holder, lease_until, holder_host, holder_pid)"
          + " VALUES (?, ?, ?, ?, ?)"
          + " ON CONFLICT (owner) DO UPDATE"
          + " SET holder = excluded.holder, lease_until = excluded.lease_until,"
          + " holder_host = excluded.holder_host, holder_pid = excluded.holder_pid"
          + " WHERE ";

  /** Free (inserted) or already the caller's: the common case, no takeover. */
  static final String MINE = LEASE + "session_leases.holder = excluded.holder";

  /** Another holder's lease that has run out: a takeover. */
  static final String RUN_OUT = LEASE + "session_leases.lease_until < ?";

  private static final String RENEW =
      "UPDATE session_leases SET lease_until = ? WHERE owner = ? AND holder = ?";

  private final SqlValues values;
  private final LeaseHolder process;

  /**
   * @param values how the database stores timestamps
   * @param process the process recorded as holding the leases taken
   */
  LeaseRows(SqlValues values, LeaseHolder process) {
    this.values = values;
    this.process = process;
  }

  /** The lease upsert {@code sql} ({@link #MINE} or {@link #RUN_OUT}) for {@code owner}. */
  SharedWriter.Update take(
      String sql, String owner, String holder, Instant now, Duration duration) {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(now, "now");
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(
          "a lease must last a positive time, not " + duration + ": pass the lease's duration");
    }
    Instant until = now.plus(duration);
    return new SharedWriter.Update(
        sql,
        s -> {
          s.setString(1, owner);
          s.setString(2, holder);
          values.bindTruncated(s, 3, until);
          s.setString(4, process.host());
          s.setLong(5, process.pid());
          if (sql.equals(RUN_OUT)) {
            values.bindTruncated(s, 6, now);
          }
        });
  }

  /**
   * Extends {@code holder}'s lease on {@code owner} to {@code until}; no row when it holds none.
   */
  SharedWriter.Update renew(String owner, String holder, Instant until) {
    return new SharedWriter.Update(
        RENEW,
        s -> {
          values.bindTruncated(s, 1, until);
          s.setString(2, owner);
          s.setString(3, holder);
        });
  }

  /** Gives up {@code holder}'s lease on {@code owner}; no row when it holds none. */
  static SharedWriter.Update release(String owner, String holder) {
    return new SharedWriter.Update(
        "DELETE FROM session_leases WHERE owner = ? AND holder = ?",
        s -> {
          s.setString(1, owner);
          s.setString(2, holder);
        });
  }

  /**
   * A statement that changes nothing but, run first in a transaction, aborts it with {@link
   * LeaseLostException} when {@code holder} does not hold {@code owner}'s lease.
   */
  public static SharedWriter.Update guard(String owner, String holder) {
    String touch = "UPDATE session_leases SET holder = holder WHERE owner = ? AND holder = ?";
    return new SharedWriter.Update(
        touch,
        s -> {
          // The touch locks the lease's row until the transaction ends (PostgreSQL), so a takeover
          // waits for it rather than slipping in between this check and the writes after it.
          try (PreparedStatement check = s.getConnection().prepareStatement(touch)) {
            check.setString(1, owner);
            check.setString(2, holder);
            if (check.executeUpdate() != 1) {
              throw new LeaseLostException(owner, holder);
            }
          }
          s.setString(1, owner);
          s.setString(2, holder);
        });
  }
}
