package dev.legio.log.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/**
 * How one SQL database stores ids and timestamps: SQLite as text (ids in their canonical form,
 * timestamps as {@link dev.legio.log.Timestamps#format canonical text}, whose order is time order),
 * PostgreSQL as {@code uuid} and {@code timestamptz}. Every table of the database uses the same
 * representation, so other stores sharing it (the session store) stay consistent with {@code
 * nuntii}.
 */
public interface SqlValues {

  /** "sqlite" or "postgres": names the migration folder and appears in errors. */
  String name();

  /** Binds an id; null binds SQL NULL. */
  void bindId(PreparedStatement statement, int index, UUID id) throws SQLException;

  /** Reads an id; SQL NULL reads as null. */
  UUID readId(ResultSet row, int column) throws SQLException;

  /**
   * Binds a timestamp, which must be truncated to microseconds first ({@link
   * dev.legio.log.Timestamps#truncate}): the databases would otherwise not agree on the rest.
   */
  void bindTimestamp(PreparedStatement statement, int index, Instant timestamp) throws SQLException;

  /** Binds {@code timestamp} truncated to microseconds, as {@link #bindTimestamp} requires. */
  default void bindTruncated(PreparedStatement statement, int index, Instant timestamp)
      throws SQLException {
    bindTimestamp(statement, index, dev.legio.log.Timestamps.truncate(timestamp));
  }

  Instant readTimestamp(ResultSet row, int column) throws SQLException;
}
