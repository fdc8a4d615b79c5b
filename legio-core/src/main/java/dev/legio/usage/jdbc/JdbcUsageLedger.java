package dev.legio.usage.jdbc;

import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.ContentRefusal;
import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.log.jdbc.TransactionNotBegunException;
import dev.legio.pricing.Tokens;
import dev.legio.usage.CostSource;
import dev.legio.usage.Grouping;
import dev.legio.usage.KeySessionTotal;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.TaskRef;
import dev.legio.usage.TurnCost;
import dev.legio.usage.TurnOutcome;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageLedgerException;
import dev.legio.usage.UsageReport;
import dev.legio.usage.UsageRowRefusedException;
import dev.legio.usage.UsageTotal;
import dev.legio.usage.UsageWriteNotBegunException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The usage ledger on Legio's SQL database (SQLite or PostgreSQL), in the table {@code
 * usage_ledger}. Costs are stored as whole nano-USD (rounded half up), so the database's sums are
 * exact; reports add the rows up in SQL, grouped as asked. A row whose turn id is already in the
 * table is not written again ({@code ON CONFLICT (turn_id) DO NOTHING}, on both databases), so a
 * retried write counts its turn once. Every write runs on the message log's writer ({@link
 * SharedWriter}), never on a pool connection: so a write the database refused to begin is always
 * told as such ({@link UsageWriteNotBegunException}), and the writer's retries can keep its rows
 * whole; a pool connection's write could not tell a transaction refused from a statement failed.
 */
public final class JdbcUsageLedger implements UsageLedger {
  private static final String APPEND =
      "INSERT INTO usage_ledger (at, session_id, owner, session_key, agent, task_run_id, backend,"
          + " model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,"
          + " cost_nanos, price_table_cost_nanos, reported_cost_nanos, cost_source, duration_ms,"
          + " outcome, turn_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " ON CONFLICT (turn_id) DO NOTHING";
  private static final String ENTRIES =
      "SELECT at, session_id, owner, session_key, agent, task_run_id, backend, model,"
          + " input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_nanos,"
          + " price_table_cost_nanos, reported_cost_nanos, cost_source, duration_ms, outcome,"
          + " turn_id FROM usage_ledger WHERE at >= ? ORDER BY at, id LIMIT ?";

  /**
   * The totals of a group of rows, read by {@link #total}: turns, tokens, cost, unknown, failed.
   */
  private static final String TOTALS =
      "COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(cache_read_tokens),"
          + " SUM(cache_write_tokens), SUM(cost_nanos), COUNT(*) - COUNT(cost_nanos),"
          + " SUM(CASE WHEN outcome = 'ok' THEN 0 ELSE 1 END)";

  private static final String REPORT =
      "SELECT %1$s, " + TOTALS + " FROM usage_ledger WHERE at >= ? GROUP BY %1$s";
  private static final String SESSIONS_OF_KEY =
      "SELECT session_id, agent, MIN(at), MAX(at), "
          + TOTALS
          + " FROM usage_ledger WHERE session_key = ? GROUP BY session_id, agent ORDER BY MIN(at)";
  private static final String DELETE_BEFORE = "DELETE FROM usage_ledger WHERE at < ?";

  private final DataSource pool;
  private final SqlValues values;
  private final SharedWriter writer;
  private final boolean postgres;

  /**
   * @param pool connections to a database migrated with Legio's migrations, for reads
   * @param values how that database stores ids and timestamps
   * @param writer where writes run: the message log's writer ({@code JdbcMessageLog#sharedWriter})
   */
  public JdbcUsageLedger(DataSource pool, SqlValues values, SharedWriter writer) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.writer =
        Objects.requireNonNull(
            writer,
            "writer: pass the message log's shared writer (JdbcMessageLog#sharedWriter); the"
                + " usage ledger writes only through it");
    this.postgres = values.name().equals("postgres");
  }

  @Override
  public void append(LedgerEntry e) {
    Objects.requireNonNull(e, "entry");
    update("recording the usage of a turn of '" + e.owner() + "'", APPEND, binder(e));
  }

  /** Several turns in one transaction: on the shared writer, one group commit for all of them. */
  @Override
  public void appendAll(List<LedgerEntry> entries) {
    if (entries.isEmpty()) {
      return;
    }
    List<SharedWriter.Update> updates = new ArrayList<>(entries.size());
    for (LedgerEntry e : entries) {
      updates.add(new SharedWriter.Update(APPEND, binder(Objects.requireNonNull(e, "entry"))));
    }
    updateAll("recording the usage of " + entries.size() + " turns", updates);
  }

  private SharedWriter.Binder binder(LedgerEntry e) {
    return s -> {
      values.bindTimestamp(s, 1, Timestamps.truncate(e.at()));
      values.bindId(s, 2, e.sessionId());
      s.setString(3, e.owner());
      TaskRef task = e.task();
      s.setString(4, task == null ? null : task.sessionKey());
      s.setString(5, task == null ? null : task.agent());
      s.setString(6, task == null ? null : task.taskRunId());
      s.setString(7, e.backend());
      s.setString(8, e.model());
      s.setLong(9, e.tokens().input());
      s.setLong(10, e.tokens().output());
      s.setLong(11, e.tokens().cacheRead());
      s.setLong(12, e.tokens().cacheWrite());
      bindNanos(s, 13, e.cost().usd());
      bindNanos(s, 14, e.cost().priceTableUsd());
      bindNanos(s, 15, e.cost().reportedUsd());
      s.setString(16, e.cost().source().label());
      if (e.duration() == null) {
        s.setNull(17, Types.BIGINT);
      } else {
        s.setLong(17, e.duration().toMillis());
      }
      s.setString(18, e.outcome().label());
      values.bindId(s, 19, e.turnId());
    };
  }

  @Override
  public UsageReport report(Instant since, Grouping by) {
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(by, "by");
    List<UsageTotal> rows = new ArrayList<>();
    try (Connection connection = pool.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(REPORT.formatted(groupExpression(by)))) {
      values.bindTimestamp(statement, 1, Timestamps.truncate(since));
      try (ResultSet row = statement.executeQuery()) {
        while (row.next()) {
          rows.add(total(row.getString(1), row, 2));
        }
      }
    } catch (SQLException e) {
      throw new UsageLedgerException("reading the usage ledger failed: " + e.getMessage(), e);
    }
    rows.sort(
        Comparator.comparing(UsageTotal::group, Comparator.nullsLast(Comparator.naturalOrder())));
    return UsageReport.of(since, by, rows);
  }

  private String groupExpression(Grouping by) {
    return switch (by) {
      case AGENT -> "COALESCE(agent, owner)";
      case SESSION -> postgres ? "CAST(session_id AS TEXT)" : "session_id";
      case KEY -> "session_key";
      case TASK_RUN -> "task_run_id";
      case MODEL -> "COALESCE(model, backend || ' default')";
      case DAY -> postgres ? "to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD')" : "substr(at, 1, 10)";
    };
  }

  @Override
  public List<LedgerEntry> entries(Instant since, int limit) {
    List<LedgerEntry> out = new ArrayList<>();
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(ENTRIES)) {
      values.bindTimestamp(statement, 1, Timestamps.truncate(since));
      statement.setInt(2, limit);
      try (ResultSet row = statement.executeQuery()) {
        while (row.next()) {
          out.add(entry(row));
        }
      }
    } catch (SQLException e) {
      throw new UsageLedgerException("reading the usage ledger failed: " + e.getMessage(), e);
    }
    return out;
  }

  private LedgerEntry entry(ResultSet row) throws SQLException {
    String key = row.getString(4);
    TaskRef task = key == null ? null : new TaskRef(key, row.getString(5), row.getString(6));
    Tokens tokens = new Tokens(row.getLong(9), row.getLong(10), row.getLong(11), row.getLong(12));
    TurnCost cost =
        new TurnCost(
            readNanos(row, 13),
            readNanos(row, 14),
            readNanos(row, 15),
            CostSource.ofLabel(row.getString(16)));
    long millis = row.getLong(17);
    Duration duration = row.wasNull() ? null : Duration.ofMillis(millis);
    return new LedgerEntry(
        values.readTimestamp(row, 1),
        values.readId(row, 2),
        row.getString(3),
        task,
        row.getString(7),
        row.getString(8),
        tokens,
        cost,
        duration,
        TurnOutcome.ofLabel(row.getString(18)),
        values.readId(row, 19));
  }

  @Override
  public List<KeySessionTotal> sessionsOfKey(String sessionKey) {
    Objects.requireNonNull(sessionKey, "sessionKey");
    List<KeySessionTotal> out = new ArrayList<>();
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(SESSIONS_OF_KEY)) {
      statement.setString(1, sessionKey);
      try (ResultSet row = statement.executeQuery()) {
        while (row.next()) {
          UUID id = values.readId(row, 1);
          out.add(
              new KeySessionTotal(
                  id,
                  row.getString(2),
                  values.readTimestamp(row, 3),
                  values.readTimestamp(row, 4),
                  total(id.toString(), row, 5)));
        }
      }
    } catch (SQLException e) {
      throw new UsageLedgerException("reading the usage ledger failed: " + e.getMessage(), e);
    }
    return out;
  }

  /** The {@link #TOTALS} of {@code row}, from its column {@code first} on, under {@code group}. */
  private static UsageTotal total(String group, ResultSet row, int first) throws SQLException {
    long nanos = row.getLong(first + 5);
    BigDecimal cost = row.wasNull() ? null : usd(nanos);
    return new UsageTotal(
        group,
        row.getLong(first),
        new Tokens(
            row.getLong(first + 1),
            row.getLong(first + 2),
            row.getLong(first + 3),
            row.getLong(first + 4)),
        cost,
        row.getLong(first + 6),
        row.getLong(first + 7));
  }

  @Override
  public int deleteBefore(Instant cutoff) {
    Objects.requireNonNull(cutoff, "cutoff");
    return update(
        "pruning the usage ledger",
        DELETE_BEFORE,
        s -> values.bindTimestamp(s, 1, Timestamps.truncate(cutoff)));
  }

  /** {@code usd} in whole nano-USD, rounded half up. */
  static long nanos(BigDecimal usd) {
    return usd.movePointRight(9).setScale(0, RoundingMode.HALF_UP).longValueExact();
  }

  static BigDecimal usd(long nanos) {
    return BigDecimal.valueOf(nanos, 9).stripTrailingZeros();
  }

  private static void bindNanos(PreparedStatement s, int index, BigDecimal usd)
      throws SQLException {
    if (usd == null) {
      s.setNull(index, Types.BIGINT);
    } else {
      s.setLong(index, nanos(usd));
    }
  }

  private static BigDecimal readNanos(ResultSet row, int column) throws SQLException {
    long nanos = row.getLong(column);
    return row.wasNull() ? null : usd(nanos);
  }

  private int update(String action, String sql, SharedWriter.Binder binder) {
    try {
      return writer.executeUpdate(sql, binder);
    } catch (RuntimeException e) {
      throw failure(action, e);
    }
  }

  /** Runs {@code updates} in one transaction on the shared writer. */
  private void updateAll(String action, List<SharedWriter.Update> updates) {
    try {
      writer.executeUpdates(updates);
    } catch (RuntimeException e) {
      throw failure(action, e);
    }
  }

  /**
   * The failure of {@code action}: a {@link UsageRowRefusedException} when the database refused the
   * rows for what they hold ({@link ContentRefusal}), which writing them again would not change; a
   * {@link UsageWriteNotBegunException} when the shared writer says it refused to begin the
   * transaction ({@link TransactionNotBegunException}), which writing them apart would not change.
   */
  private UsageLedgerException failure(String action, RuntimeException e) {
    String message = action + " failed: " + e.getMessage();
    if (e instanceof TransactionNotBegunException) {
      return new UsageWriteNotBegunException(message, e);
    }
    return ContentRefusal.of(values, e)
        ? new UsageRowRefusedException(message, e)
        : new UsageLedgerException(message, e);
  }
}
