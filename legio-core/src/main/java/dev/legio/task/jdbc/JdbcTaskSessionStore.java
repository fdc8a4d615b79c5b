package dev.legio.task.jdbc;

import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.session.LeaseLostException;
import dev.legio.session.jdbc.LeaseRows;
import dev.legio.task.TaskSessionRecord;
import dev.legio.task.TaskSessionStore;
import dev.legio.task.TaskSessionStoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The task session store on Legio's SQL database (SQLite or PostgreSQL), in the table {@code
 * task_sessions} (one row per session key and agent). Reads run on pool connections; writes go
 * through the log's writer when one is given (one connection writes the database).
 */
public final class JdbcTaskSessionStore implements TaskSessionStore {
  private static final List<String> COLUMNS =
      List.of(
          "session_key",
          "agent",
          "session_id",
          "backend",
          "backend_session_id",
          "prompt_hash",
          "model",
          "input_tokens",
          "output_tokens",
          "turns",
          "created_at",
          "last_active_at",
          "expires_at",
          "backend_node");
  private static final String SELECT =
      "SELECT " + String.join(", ", COLUMNS) + " FROM task_sessions";
  private static final String SAVE =
      "INSERT INTO task_sessions ("
          + String.join(", ", COLUMNS)
          + ") VALUES ("
          + String.join(", ", Collections.nCopies(COLUMNS.size(), "?"))
          + ") ON CONFLICT (session_key, agent) DO UPDATE SET "
          + COLUMNS.stream()
              .skip(2)
              .map(column -> column + " = excluded." + column)
              .collect(Collectors.joining(", "));
  private static final String DELETE_EXPIRED =
      "DELETE FROM task_sessions WHERE session_key = ? AND agent = ? AND expires_at <= ?";

  private final DataSource pool;
  private final SqlValues values;
  private final SharedWriter writer;
  private final String node;

  /** A store that records this process's node ({@code LEGIO_NODE_NAME}, else the host name). */
  public JdbcTaskSessionStore(DataSource pool, SqlValues values, SharedWriter writer) {
    this(pool, values, writer, dev.legio.session.LeaseHolder.thisProcess().host());
  }

  /**
   * @param pool connections to a database migrated with Legio's migrations, in auto-commit mode
   * @param values how that database stores ids and timestamps
   * @param writer where writes run (the message log's writer); null: on pool connections
   * @param node the node recorded as holding the back-end conversation of each record saved here
   */
  public JdbcTaskSessionStore(DataSource pool, SqlValues values, SharedWriter writer, String node) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.writer = writer;
    this.node = Objects.requireNonNull(node, "node");
  }

  @Override
  public Optional<dev.legio.session.ConversationHome> conversationHome(
      String sessionKey, String agent, Instant now) {
    try (Connection connection = pool.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT backend, backend_node FROM task_sessions WHERE session_key = ?"
                    + " AND agent = ? AND expires_at > ? AND backend_node IS NOT NULL")) {
      statement.setString(1, sessionKey);
      statement.setString(2, agent);
      values.bindTimestamp(statement, 3, Timestamps.truncate(now));
      try (ResultSet row = statement.executeQuery()) {
        return row.next()
            ? Optional.of(
                new dev.legio.session.ConversationHome(row.getString(1), row.getString(2)))
            : Optional.empty();
      }
    } catch (SQLException e) {
      throw new TaskSessionStoreException(
          "reading which node holds the task session of " + agent + " failed: " + e.getMessage(),
          e);
    }
  }

  @Override
  public Optional<TaskSessionRecord> find(String sessionKey, String agent) {
    List<TaskSessionRecord> found =
        query(
            SELECT + " WHERE session_key = ? AND agent = ?",
            s -> {
              s.setString(1, sessionKey);
              s.setString(2, agent);
            });
    return found.stream().findFirst();
  }

  @Override
  public void save(TaskSessionRecord r) {
    update("saving the task session of " + r.agent(), List.of(saveUpdate(r)));
  }

  @Override
  public void saveWhileLeased(TaskSessionRecord r, String lease, String holder) {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(holder, "holder");
    update(
        "saving the task session of " + r.agent() + " under its lease",
        List.of(LeaseRows.guard(lease, holder), saveUpdate(r)));
  }

  private SharedWriter.Update saveUpdate(TaskSessionRecord r) {
    return new SharedWriter.Update(
        SAVE,
        s -> {
          s.setString(1, r.sessionKey());
          s.setString(2, r.agent());
          values.bindId(s, 3, r.sessionId());
          s.setString(4, r.backend());
          s.setString(5, r.backendSessionId());
          s.setString(6, r.promptHash());
          s.setString(7, r.model());
          s.setLong(8, r.inputTokens());
          s.setLong(9, r.outputTokens());
          s.setLong(10, r.turns());
          values.bindTimestamp(s, 11, Timestamps.truncate(r.createdAt()));
          values.bindTimestamp(s, 12, Timestamps.truncate(r.lastActiveAt()));
          values.bindTimestamp(s, 13, Timestamps.truncate(r.expiresAt()));
          s.setString(14, node);
        });
  }

  @Override
  public List<TaskSessionRecord> forKey(String sessionKey) {
    return query(SELECT + " WHERE session_key = ? ORDER BY agent", s -> s.setString(1, sessionKey));
  }

  @Override
  public List<TaskSessionRecord> deleteExpired(Instant now) {
    Instant cutoff = Timestamps.truncate(now);
    List<TaskSessionRecord> expired =
        query(SELECT + " WHERE expires_at <= ?", s -> values.bindTimestamp(s, 1, cutoff));
    List<TaskSessionRecord> deleted = new ArrayList<>();
    for (TaskSessionRecord r : expired) {
      // A turn may have renewed it since the read: the condition deletes only what is still due.
      int n =
          update(
              "deleting an expired task session",
              DELETE_EXPIRED,
              s -> {
                s.setString(1, r.sessionKey());
                s.setString(2, r.agent());
                values.bindTimestamp(s, 3, cutoff);
              });
      if (n > 0) {
        deleted.add(r);
      }
    }
    return deleted;
  }

  private List<TaskSessionRecord> query(String sql, SharedWriter.Binder binder) {
    List<TaskSessionRecord> out = new ArrayList<>();
    try (Connection connection = pool.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      try (ResultSet row = statement.executeQuery()) {
        while (row.next()) {
          out.add(
              new TaskSessionRecord(
                  row.getString(1),
                  row.getString(2),
                  values.readId(row, 3),
                  row.getString(4),
                  row.getString(5),
                  row.getString(6),
                  row.getString(7),
                  row.getLong(8),
                  row.getLong(9),
                  row.getLong(10),
                  values.readTimestamp(row, 11),
                  values.readTimestamp(row, 12),
                  values.readTimestamp(row, 13)));
        }
      }
    } catch (SQLException e) {
      throw new TaskSessionStoreException("reading task sessions failed: " + e.getMessage(), e);
    }
    return out;
  }

  private int update(String action, String sql, SharedWriter.Binder binder) {
    return update(action, List.of(new SharedWriter.Update(sql, binder)))[0];
  }

  /**
   * Runs {@code updates} in one transaction; returns their update counts. A lease {@linkplain
   * LeaseRows#guard guard} that refuses passes its {@link LeaseLostException} on as it is.
   */
  private int[] update(String action, List<SharedWriter.Update> updates) {
    if (writer != null) {
      try {
        return writer.executeUpdates(updates);
      } catch (LeaseLostException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new TaskSessionStoreException(action + " failed: " + e.getMessage(), e);
      }
    }
    try (Connection connection = pool.getConnection()) {
      return SharedWriter.inOneTransaction(connection, updates);
    } catch (SQLException e) {
      throw new TaskSessionStoreException(action + " failed: " + e.getMessage(), e);
    }
  }
}
