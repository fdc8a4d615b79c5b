package dev.legio.session.jdbc;

import dev.legio.backend.ContextUse;
import dev.legio.errors.Quoted;
import dev.legio.log.Timestamps;
import dev.legio.log.jdbc.SqlValues;
import dev.legio.session.DamagedSession;
import dev.legio.session.DamagedSessionException;
import dev.legio.session.SessionListing;
import dev.legio.session.SessionRecord;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
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
 * microsecond on both databases; a row with a value Legio does not write (a state other than {@code
 * active} or {@code closed}, previous ids that are not a JSON array of strings, a session id that
 * is not a UUID, a timestamp that is not one, a required value that is NULL) is read as a {@link
 * DamagedSession}, naming the column and quoting the value, thrown as a {@link
 * DamagedSessionException}.
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

  /**
   * The record in the current row of a {@link #SELECT}.
   *
   * @throws DamagedSessionException when a value of the row cannot be read as the record's, naming
   *     the column and quoting the value
   */
  SessionRecord read(ResultSet row) throws SQLException {
    String owner = row.getString(1);
    try {
      return new SessionRecord(
          owner,
          required(row, 2, values::readId),
          required(row, 3, ResultSet::getString),
          row.getString(4),
          required(row, 5, ResultSet::getString),
          row.getString(6),
          row.getLong(7),
          row.getLong(8),
          row.getLong(9),
          row.getLong(10),
          required(row, 11, values::readTimestamp),
          required(row, 12, values::readTimestamp),
          required(row, 13, values::readTimestamp),
          required(row, 14, (r, i) -> state(r.getString(i))),
          row.getString(15),
          row.getLong(16),
          value(row, 17, (r, i) -> context(r)),
          value(row, 21, (r, i) -> PreviousIds.fromColumn(r.getString(i))));
    } catch (UnreadableValue e) {
      throw damaged(row, owner, e.getMessage());
    } catch (RuntimeException e) {
      // Any other value the record refuses: the row is damaged all the same, and hides no other.
      throw damaged(
          row,
          owner,
          "its values are not a session record ("
              + Quoted.of(String.valueOf(e.getMessage()))
              + ")");
    }
  }

  /**
   * Every row left in {@code rows} (a {@link #SELECT}): the records, and the rows {@link #read}
   * finds damaged, each named, the rows after it read all the same.
   */
  SessionListing readAll(ResultSet rows) throws SQLException {
    List<SessionRecord> records = new ArrayList<>();
    List<DamagedSession> damaged = new ArrayList<>();
    while (rows.next()) {
      try {
        records.add(read(rows));
      } catch (DamagedSessionException e) {
        damaged.add(e.damage());
      }
    }
    return new SessionListing(records, damaged);
  }

  private DamagedSessionException damaged(ResultSet row, String owner, String problem) {
    return new DamagedSessionException(
        new DamagedSession(owner, text(row, 2), problem, rebuilds(row), values.name()));
  }

  /** Reads one column's value; may throw a {@link RuntimeException} saying what is wrong. */
  @FunctionalInterface
  private interface ColumnReader<T> {
    T read(ResultSet row, int column) throws SQLException;
  }

  /**
   * A value that is not one Legio writes, thrown by a column's reader: its message says how, after
   * the column's name and value ({@code is neither 'active' nor 'closed'}).
   */
  static final class WrongValue extends IllegalArgumentException {
    WrongValue(String how) {
      super(how);
    }
  }

  /** A value of a row that is not one Legio writes: its message says which and why. */
  private static final class UnreadableValue extends RuntimeException {
    UnreadableValue(String message) {
      super(message, null, false, false);
    }
  }

  /** Column {@code column}'s value, which may not be NULL. */
  private <T> T required(ResultSet row, int column, ColumnReader<T> reader) throws SQLException {
    T value = value(row, column, reader);
    if (value == null) {
      throw new UnreadableValue(COLUMNS.get(column - 1) + " is NULL");
    }
    return value;
  }

  /** Column {@code column}'s value as {@code reader} reads it, or why it cannot be. */
  private static <T> T value(ResultSet row, int column, ColumnReader<T> reader)
      throws SQLException {
    try {
      return reader.read(row, column);
    } catch (RuntimeException e) {
      String stored = text(row, column);
      if (stored == null && !(e instanceof WrongValue)) {
        throw new UnreadableValue(COLUMNS.get(column - 1) + " is NULL");
      }
      throw new UnreadableValue(
          COLUMNS.get(column - 1)
              + " '"
              + Quoted.of(stored)
              + "' "
              + (e instanceof WrongValue
                  ? e.getMessage()
                  : "cannot be read (" + Quoted.of(String.valueOf(e.getMessage())) + ")"));
    }
  }

  /** A column's value as text, as stored; null when it cannot be read as text. */
  private static String text(ResultSet row, int column) {
    try {
      return row.getString(column);
    } catch (SQLException | RuntimeException e) {
      return null;
    }
  }

  /** The row's count of rebuilds, or 0 when that cannot be read either. */
  private static long rebuilds(ResultSet row) {
    try {
      return Math.max(0, row.getLong(16));
    } catch (SQLException | RuntimeException e) {
      return 0;
    }
  }

  /** The context figures of a row: null when it has none (all four columns are null together). */
  private static ContextUse context(ResultSet row) throws SQLException {
    long tokens = row.getLong(17);
    if (row.wasNull()) {
      return null;
    }
    return new ContextUse(tokens, row.getLong(18), row.getInt(19), row.getBoolean(20));
  }

  private static SessionRecord.State state(String state) {
    return switch (state) {
      case null -> null;
      case "active" -> SessionRecord.State.ACTIVE;
      case "closed" -> SessionRecord.State.CLOSED;
      default -> throw new WrongValue("is neither 'active' nor 'closed'");
    };
  }
}
