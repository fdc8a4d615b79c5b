package dev.legio.session.jdbc;

import dev.legio.backend.ContextUse;
import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.session.SessionRecord;
import dev.legio.session.SessionStoreException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a {@link SessionRecord} is a row of {@code sessions}: its columns in order, the upsert that
 * saves it, binding a record and reading one back.
 *
 * <p>Rules: the four context columns are null together (a record without context figures); previous
 * back-end ids are one JSON column ({@link PreviousIds}); timestamps are truncated to the
 * microsecond on both databases; a state other than {@code active} or {@code closed} is an error
 * that names the row and what to do.
 */
final class SessionRows {
  static final List<String> COLUMNS =
      List.of(
          "owner",
          "session_id",
          "backend",
          "backend_session_id",
          "prompt_hash",
          "roster_hash",
          "input_tokens",
          "output_tokens",
          "message_count",
          "last_injected_seq",
          "created_at",
          "last_active_at",
          "expires_at",
          "state",
          "close_reason",
          "rebuilds",
          "context_tokens",
          "context_window",
          "compaction_failures",
          "compaction_disabled",
          "previous_backend_session_ids",
          "backend_node");

  static final String SELECT = "SELECT " + String.join(", ", COLUMNS) + " FROM sessions";

  static final String SAVE =
      "INSERT INTO sessions ("
          + String.join(", ", COLUMNS)
          + ") VALUES ("
          + String.join(", ", Collections.nCopies(COLUMNS.size(), "?"))
          + ") ON CONFLICT (owner) DO UPDATE SET "
          + COLUMNS.stream()
              .skip(1)
              .map(column -> column + " = excluded." + column)
              .collect(Collectors.joining(", "));

  private final SqlValues values;
  private final String node;

  /**
   * @param node the node recorded as holding the back-end conversation of each record saved here
   *     (the node that ran the turn: see {@code backend_node} in the migration)
   */
  SessionRows(SqlValues values, String node) {
    this.values = values;
    this.node = node;
  }

  /** Binds {@code record} to {@link #SAVE}'s parameters. */
  void bind(PreparedStatement s, SessionRecord record) throws SQLException {
    s.setString(1, record.owner());
    values.bindId(s, 2, record.sessionId());
    s.setString(3, record.backend());
    s.setString(4, record.backendSessionId());
    s.setString(5, record.promptHash());
    s.setString(6, record.rosterHash());
    s.setLong(7, record.inputTokens());
    s.setLong(8, record.outputTokens());
    s.setLong(9, record.messageCount());
    s.setLong(10, record.lastInjectedSequence());
    values.bindTimestamp(s, 11, Timestamps.truncate(record.createdAt()));
    values.bindTimestamp(s, 12, Timestamps.truncate(record.lastActiveAt()));
    values.bindTimestamp(s, 13, Timestamps.truncate(record.expiresAt()));
    s.setString(14, record.state().name().toLowerCase(Locale.ROOT));
    s.setString(15, record.closeReason());
    s.setLong(16, record.rebuilds());
    ContextUse context = record.context();
    if (context == null) {
      s.setNull(17, Types.BIGINT);
      s.setNull(18, Types.BIGINT);
      s.setNull(19, Types.INTEGER);
      s.setNull(20, Types.BOOLEAN);
    } else {
      s.setLong(17, context.tokens());
      s.setLong(18, context.window());
      s.setInt(19, context.compactionFailures());
      s.setBoolean(20, context.compactionDisabled());
    }
    s.setString(21, PreviousIds.toColumn(record.previousBackendSessionIds()));
    s.setString(22, node);
  }

  /** The record in the current row of a {@link #SELECT}. */
  SessionRecord read(ResultSet row) throws SQLException {
    String owner = row.getString(1);
    return new SessionRecord(
        owner,
        values.readId(row, 2),
        row.getString(3),
        row.getString(4),
        row.getString(5),
        row.getString(6),
        row.getLong(7),
        row.getLong(8),
        row.getLong(9),
        row.getLong(10),
        values.readTimestamp(row, 11),
        values.readTimestamp(row, 12),
        values.readTimestamp(row, 13),
        state(owner, row.getString(14)),
        row.getString(15),
        row.getLong(16),
        context(row),
        PreviousIds.fromColumn(owner, row.getString(21)));
  }

  /** The context figures of a row: null when it has none (all four columns are null together). */
  private static ContextUse context(ResultSet row) throws SQLException {
    long tokens = row.getLong(17);
    if (row.wasNull()) {
      return null;
    }
    return new ContextUse(tokens, row.getLong(18), row.getInt(19), row.getBoolean(20));
  }

  private SessionRecord.State state(String owner, String state) {
    return switch (state) {
      case "active" -> SessionRecord.State.ACTIVE;
      case "closed" -> SessionRecord.State.CLOSED;
      default ->
          throw new SessionStoreException(
              "the session of '"
                  + owner
                  + "' in the "
                  + values.name()
                  + " database has state '"
                  + state
                  + "', which is neither 'active' nor 'closed': fix or delete that row");
    };
  }
}
