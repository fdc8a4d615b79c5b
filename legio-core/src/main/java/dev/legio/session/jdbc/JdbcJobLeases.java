package dev.legio.session.jdbc;

import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.session.JobLeases;
import dev.legio.session.LeaseHolder;
import dev.legio.session.SessionStoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The job leases on the message log's SQL database (SQLite or PostgreSQL), in the table {@code
 * job_leases}: one row per job whose lease some node holds or held.
 *
 * <p>{@link #tryTake} is one upsert whose update only happens when the lease is free, run out or
 * already the caller's (as {@link JdbcSessionStore#tryLease}): the update count is the answer, and
 * both databases run it atomically against other processes. A refused lease whose holder is gone (a
 * process on this host that ended) is deleted and tried once more.
 */
public final class JdbcJobLeases implements JobLeases {
  private static final String TAKE =
      "INSERT INTO job_leases (job, holder, lease_until, holder_host, holder_pid)"
          + " VALUES (?, ?, ?, ?, ?)"
          + " ON CONFLICT (job) DO UPDATE"
          + " SET holder = excluded.holder, lease_until = excluded.lease_until,"
          + " holder_host = excluded.holder_host, holder_pid = excluded.holder_pid"
          + " WHERE job_leases.lease_until < ? OR job_leases.holder = excluded.holder";

  private final DataSource pool;
  private final SqlValues values;
  private final SharedWriter writer;
  private final LeaseHolder process;

  /**
   * @param writer where writes run (the message log's writer); null: on pool connections
   * @param process the process recorded as holding the leases taken here
   */
  public JdbcJobLeases(
      DataSource pool, SqlValues values, SharedWriter writer, LeaseHolder process) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.writer = writer;
    this.process = Objects.requireNonNull(process, "process");
  }

  @Override
  public boolean tryTake(String job, String holder, Instant now, Duration ttl) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("a job lease must last a positive time, not " + ttl);
    }
    String action = "taking the lease of job '" + job + "' for '" + holder + "'";
    SharedWriter.Update take =
        new SharedWriter.Update(
            TAKE,
            s -> {
              s.setString(1, job);
              s.setString(2, holder);
              values.bindTruncated(s, 3, now.plus(ttl));
              s.setString(4, process.host());
              s.setLong(5, process.pid());
              values.bindTruncated(s, 6, now);
            });
    if (update(action, take) == 1) {
      return true;
    }
    return releaseAbandoned(job) && update(action, take) == 1;
  }

  /** Deletes {@code job}'s lease when its holder's process is gone; true when it did. */
  private boolean releaseAbandoned(String job) {
    String holder = null;
    LeaseHolder owner = null;
    try (Connection connection = pool.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT holder, holder_host, holder_pid FROM job_leases WHERE job = ?")) {
      statement.setString(1, job);
      try (ResultSet row = statement.executeQuery()) {
        if (row.next() && row.getString(2) != null) {
          holder = row.getString(1);
          owner = new LeaseHolder(row.getString(2), row.getLong(3));
        }
      }
    } catch (SQLException e) {
      throw failure("reading the lease of job '" + job + "'", e);
    }
    if (owner == null || !owner.isGone()) {
      return false;
    }
    release(job, holder);
    return true;
  }

  @Override
  public boolean renew(String job, String holder, Instant now, Duration ttl) {
    return update(
            "renewing the lease of job '" + job + "'",
            new SharedWriter.Update(
                "UPDATE job_leases SET lease_until = ? WHERE job = ? AND holder = ?",
                s -> {
                  values.bindTruncated(s, 1, now.plus(ttl));
                  s.setString(2, job);
                  s.setString(3, holder);
                }))
        == 1;
  }

  @Override
  public void release(String job, String holder) {
    update(
        "releasing the lease of job '" + job + "'",
        new SharedWriter.Update(
            "DELETE FROM job_leases WHERE job = ? AND holder = ?",
            s -> {
              s.setString(1, job);
              s.setString(2, holder);
            }));
  }

  @Override
  public Optional<String> holderOf(String job, Instant now) {
    try (Connection connection = pool.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT holder FROM job_leases WHERE job = ? AND lease_until >= ?")) {
      statement.setString(1, job);
      values.bindTruncated(statement, 2, now);
      try (ResultSet row = statement.executeQuery()) {
        return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw failure("reading the lease of job '" + job + "'", e);
    }
  }

  private int update(String action, SharedWriter.Update update) {
    if (writer != null) {
      try {
        return writer.executeUpdates(List.of(update))[0];
      } catch (RuntimeException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        throw failure(
            action, cause instanceof SQLException sql ? sql : new SQLException(e.getMessage(), e));
      }
    }
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(update.sql())) {
      update.binder().bind(statement);
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw failure(action, e);
    }
  }

  private SessionStoreException failure(String action, SQLException e) {
    return SessionStoreException.databaseFailed(action, values.name(), e);
  }
}
