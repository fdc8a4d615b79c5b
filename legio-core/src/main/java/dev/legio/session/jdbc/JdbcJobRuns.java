package dev.legio.session.jdbc;

import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.session.JobRuns;
import dev.legio.session.SessionStoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The {@link JobRuns} on the message log's SQL database (SQLite or PostgreSQL), in the table {@code
 * job_runs}: one row per job. {@link #completed} is one upsert whose update only happens when the
 * time given is later than the one stored, so the time never moves back; it runs on the log's
 * writer.
 */
public final class JdbcJobRuns implements JobRuns {
  private static final String COMPLETED =
      "INSERT INTO job_runs (job, completed_at) VALUES (?, ?)"
          + " ON CONFLICT (job) DO UPDATE SET completed_at = excluded.completed_at"
          + " WHERE job_runs.completed_at < excluded.completed_at";

  private final DataSource pool;
  private final SqlValues values;
  private final SharedWriter writer;

  /**
   * @param writer where writes run (the message log's writer)
   */
  public JdbcJobRuns(DataSource pool, SqlValues values, SharedWriter writer) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  @Override
  public Optional<Instant> lastCompleted(String job) {
    try (Connection connection = pool.getConnection();
        PreparedStatement statement =
            connection.prepareStatement("SELECT completed_at FROM job_runs WHERE job = ?")) {
      statement.setString(1, job);
      try (ResultSet row = statement.executeQuery()) {
        return row.next() ? Optional.of(values.readTimestamp(row, 1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw failure("reading when job '" + job + "' last completed", e);
    }
  }

  @Override
  public void completed(String job, Instant at) {
    Objects.requireNonNull(job, "job");
    try {
      writer.executeUpdate(
          COMPLETED,
          s -> {
            s.setString(1, job);
            values.bindTruncated(s, 2, at);
          });
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw failure(
          "recording that job '" + job + "' completed",
          cause instanceof SQLException sql ? sql : new SQLException(e.getMessage(), e));
    }
  }

  private SessionStoreException failure(String action, SQLException e) {
    return SessionStoreException.databaseFailed(action, values.name(), e);
  }
}
