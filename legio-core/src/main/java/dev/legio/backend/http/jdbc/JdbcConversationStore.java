package dev.legio.backend.http.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.backend.Usage;
import dev.legio.backend.http.ChatMessage;
import dev.legio.backend.http.Conversation;
import dev.legio.backend.http.ConversationStore;
import dev.legio.backend.http.ConversationStoreException;
import dev.legio.backend.http.ConversationTurn;
import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.SharedWriter;
import dev.legio.log.jdbc.SqlValues;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The conversation store on the message log's SQL database (SQLite or PostgreSQL), in the tables
 * {@code conversations} (with the compaction state, {@code compaction_failures} and {@code
 * compaction_disabled}) and {@code conversation_turns}.
 *
 * <p>A turn is one row (its messages a JSON array), inserted by one statement, so it is written
 * whole or not at all; the primary key {@code (conversation_id, turn)} refuses a second turn with
 * the same index, and the foreign key a turn of a conversation that does not exist. Deleting a
 * conversation deletes its turns (ON DELETE CASCADE).
 */
public final class JdbcConversationStore implements ConversationStore {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<ChatMessage>> MESSAGES = new TypeReference<>() {};

  private static final String CREATE =
      "INSERT INTO conversations (id, owner, backend, model, system_prompt, summary, previous_id,"
          + " created_at, compaction_failures, compaction_disabled)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String FIND =
      "SELECT id, owner, backend, model, system_prompt, summary, previous_id, created_at,"
          + " compaction_failures, compaction_disabled FROM conversations WHERE id = ?";
  private static final String COMPACTION_STATE =
      "UPDATE conversations SET compaction_failures = ?, compaction_disabled = ? WHERE id = ?";
  private static final String TURNS =
      "SELECT turn, messages, input_tokens, output_tokens, cache_read_tokens,"
          + " cache_creation_tokens, estimated, context_tokens, created_at"
          + " FROM conversation_turns WHERE conversation_id = ? ORDER BY turn";
  private static final String APPEND =
      "INSERT INTO conversation_turns (conversation_id, turn, messages, input_tokens,"
          + " output_tokens, cache_read_tokens, cache_creation_tokens, estimated, context_tokens,"
          + " created_at) VALUES (?, ?, %s, ?, ?, ?, ?, ?, ?, ?)";
  private static final String DELETE_INACTIVE =
      "DELETE FROM conversations WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM"
          + " conversation_turns t WHERE t.conversation_id = conversations.id AND t.created_at >="
          + " ?)";

  private final DataSource pool;
  private final SqlValues values;
  private final SharedWriter writer;
  private final String append;

  /**
   * @param pool connections to a database migrated with Legio's migrations, in auto-commit mode
   * @param values how that database stores ids and timestamps
   * @param writer where writes run (the message log's writer); null: on pool connections
   */
  public JdbcConversationStore(DataSource pool, SqlValues values, SharedWriter writer) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.values = Objects.requireNonNull(values, "values");
    this.writer = writer;
    this.append = APPEND.formatted(values.name().equals("postgres") ? "CAST(? AS jsonb)" : "?");
  }

  @Override
  public void create(Conversation c) {
    Objects.requireNonNull(c, "conversation");
    List<SharedWriter.Update> updates = new ArrayList<>(1 + c.turns().size());
    updates.add(
        new SharedWriter.Update(
            CREATE,
            s -> {
              values.bindId(s, 1, c.id());
              s.setString(2, c.owner());
              s.setString(3, c.backend());
              s.setString(4, c.model());
              s.setString(5, c.systemPrompt());
              s.setString(6, c.summary());
              values.bindId(s, 7, c.previousId());
              values.bindTimestamp(s, 8, Timestamps.truncate(c.createdAt()));
              s.setInt(9, c.compactionFailures());
              s.setBoolean(10, c.compactionDisabled());
            }));
    for (ConversationTurn turn : c.turns()) {
      updates.add(new SharedWriter.Update(append, appendBinder(c.id(), turn, json(c.id(), turn))));
    }
    update("storing the new conversation " + c.id() + " of '" + c.owner() + "'", updates);
  }

  @Override
  public Optional<Conversation> find(UUID id) {
    Objects.requireNonNull(id, "id");
    String action = "reading the conversation " + id;
    try (Connection connection = pool.getConnection()) {
      Conversation header;
      try (PreparedStatement statement = connection.prepareStatement(FIND)) {
        values.bindId(statement, 1, id);
        try (ResultSet row = statement.executeQuery()) {
          if (!row.next()) {
            return Optional.empty();
          }
          header =
              new Conversation(
                  values.readId(row, 1),
                  row.getString(2),
                  row.getString(3),
                  row.getString(4),
                  row.getString(5),
                  row.getString(6),
                  values.readId(row, 7),
                  values.readTimestamp(row, 8),
                  List.of(),
                  row.getInt(9),
                  row.getBoolean(10));
        }
      }
      List<ConversationTurn> turns = new ArrayList<>();
      try (PreparedStatement statement = connection.prepareStatement(TURNS)) {
        values.bindId(statement, 1, id);
        try (ResultSet row = statement.executeQuery()) {
          while (row.next()) {
            turns.add(
                new ConversationTurn(
                    row.getInt(1),
                    readMessages(id, row.getInt(1), row.getString(2)),
                    new Usage(
                        row.getLong(3),
                        row.getLong(4),
                        row.getLong(5),
                        row.getLong(6),
                        row.getBoolean(7)),
                    row.getLong(8),
                    values.readTimestamp(row, 9)));
          }
        }
      }
      return Optional.of(
          new Conversation(
              header.id(),
              header.owner(),
              header.backend(),
              header.model(),
              header.systemPrompt(),
              header.summary(),
              header.previousId(),
              header.createdAt(),
              turns,
              header.compactionFailures(),
              header.compactionDisabled()));
    } catch (SQLException e) {
      throw failure(action, e);
    }
  }

  @Override
  public void appendTurn(UUID conversationId, ConversationTurn turn) {
    Objects.requireNonNull(conversationId, "conversationId");
    Objects.requireNonNull(turn, "turn");
    String messages = json(conversationId, turn);
    String action = "appending turn " + turn.index() + " to the conversation " + conversationId;
    try {
      update(
          action,
          List.of(new SharedWriter.Update(append, appendBinder(conversationId, turn, messages))));
    } catch (ConversationStoreException e) {
      if (isConstraintViolation(e.getCause())) {
        throw new ConversationStoreException(
            action
                + " was refused: the conversation does not exist (deleted by the cleanup?) or"
                + " already has a turn "
                + turn.index()
                + " (another process continued it). Nothing was written; the session starts"
                + " a new conversation if it cannot go on.",
            e.getCause());
      }
      throw e;
    }
  }

  private static String json(UUID conversationId, ConversationTurn turn) {
    try {
      return JSON.writerFor(MESSAGES).writeValueAsString(turn.messages());
    } catch (JsonProcessingException e) {
      throw new ConversationStoreException(
          "turn " + turn.index() + " of conversation " + conversationId + " cannot be stored", e);
    }
  }

  private SharedWriter.Binder appendBinder(
      UUID conversationId, ConversationTurn turn, String messages) {
    return s -> {
      values.bindId(s, 1, conversationId);
      s.setInt(2, turn.index());
      s.setString(3, messages);
      s.setLong(4, turn.usage().inputTokens());
      s.setLong(5, turn.usage().outputTokens());
      s.setLong(6, turn.usage().cacheReadTokens());
      s.setLong(7, turn.usage().cacheCreationTokens());
      s.setBoolean(8, turn.usage().estimated());
      s.setLong(9, turn.contextTokens());
      values.bindTimestamp(s, 10, Timestamps.truncate(turn.createdAt()));
    };
  }

  @Override
  public void updateCompactionState(
      UUID conversationId, int consecutiveFailures, boolean disabled) {
    Objects.requireNonNull(conversationId, "conversationId");
    if (consecutiveFailures < 0) {
      throw new IllegalArgumentException("consecutiveFailures cannot be negative");
    }
    String action = "recording the compaction state of the conversation " + conversationId;
    int changed =
        update(
            action,
            List.of(
                new SharedWriter.Update(
                    COMPACTION_STATE,
                    s -> {
                      s.setInt(1, consecutiveFailures);
                      s.setBoolean(2, disabled);
                      values.bindId(s, 3, conversationId);
                    })))[0];
    if (changed == 0) {
      throw new ConversationStoreException(
          action + " failed: there is no such conversation (deleted by the cleanup?)");
    }
  }

  @Override
  public int deleteInactiveBefore(Instant cutoff) {
    Objects.requireNonNull(cutoff, "cutoff");
    Instant at = Timestamps.truncate(cutoff);
    return update(
        "deleting the conversations inactive since " + cutoff,
        List.of(
            new SharedWriter.Update(
                DELETE_INACTIVE,
                s -> {
                  values.bindTimestamp(s, 1, at);
                  values.bindTimestamp(s, 2, at);
                })))[0];
  }

  @Override
  public boolean delete(UUID id) {
    Objects.requireNonNull(id, "id");
    return update(
            "deleting the conversation " + id,
            List.of(
                new SharedWriter.Update(
                    "DELETE FROM conversations WHERE id = ?", s -> values.bindId(s, 1, id))))[0]
        > 0;
  }

  private static List<ChatMessage> readMessages(UUID id, int turn, String json) {
    try {
      return JSON.readValue(json, MESSAGES);
    } catch (JsonProcessingException e) {
      throw new ConversationStoreException(
          "turn "
              + turn
              + " of the conversation "
              + id
              + " holds messages Legio cannot read ("
              + e.getOriginalMessage()
              + "): reset the session (legio reset NAME) to start a new conversation",
          e);
    }
  }

  private static boolean isConstraintViolation(Throwable e) {
    if (!(e instanceof SQLException sql)) {
      return false;
    }
    String state = sql.getSQLState();
    // PostgreSQL: 23xxx integrity constraint violations; SQLite: the driver's CONSTRAINT codes.
    return (state != null && state.startsWith("23"))
        || (sql.getMessage() != null && sql.getMessage().contains("SQLITE_CONSTRAINT"));
  }

  /** Runs the statements in one transaction: all land or none. */
  private int[] update(String action, List<SharedWriter.Update> updates) {
    if (writer != null) {
      try {
        return writer.executeUpdates(updates);
      } catch (RuntimeException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        throw failure(
            action, cause instanceof SQLException s ? s : new SQLException(e.getMessage(), e));
      }
    }
    try (Connection connection = pool.getConnection()) {
      if (updates.size() == 1) {
        return new int[] {run(connection, updates.get(0))};
      }
      return SharedWriter.inOneTransaction(connection, updates);
    } catch (SQLException e) {
      throw failure(action, e);
    }
  }

  private static int run(Connection connection, SharedWriter.Update update) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(update.sql())) {
      update.binder().bind(statement);
      return statement.executeUpdate();
    }
  }

  private ConversationStoreException failure(String action, SQLException e) {
    String hint =
        values.name().equals("sqlite")
            ? "Check that the praetorium file (praetorium.sqlite_path in legio.toml) is readable"
                + " and writable."
            : "Check that the PostgreSQL server (praetorium.postgres_url in legio.toml) is"
                + " running and reachable.";
    return new ConversationStoreException(
        action + " in the " + values.name() + " database failed: " + e.getMessage() + ". " + hint,
        e);
  }
}
