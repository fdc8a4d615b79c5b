package dev.legio.log.jdbc;

import dev.legio.log.Timestamps;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * SQLite: ids and timestamps as text (Legio's own schema), sequence numbers from {@code seq INTEGER
 * PRIMARY KEY AUTOINCREMENT}. Write transactions begin IMMEDIATE, which takes the database's write
 * lock, so sequence order is commit order even between processes.
 */
final class SqliteDialect implements Dialect {
  private static final String INSERT =
      "INSERT INTO nuntii (id, sender, text, audience, timestamp, reply_to)"
          + " VALUES (?, ?, ?, ?, ?, ?) RETURNING seq";

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public void bindId(PreparedStatement statement, int index, UUID id) throws SQLException {
    statement.setString(index, id == null ? null : id.toString());
  }

  @Override
  public UUID readId(ResultSet row, int column) throws SQLException {
    String id = row.getString(column);
    return id == null ? null : UUID.fromString(id);
  }

  @Override
  public void bindTimestamp(PreparedStatement statement, int index, Instant timestamp)
      throws SQLException {
    statement.setString(index, Timestamps.format(timestamp));
  }

  @Override
  public Instant readTimestamp(ResultSet row, int column) throws SQLException {
    return Timestamps.parse(row.getString(column));
  }

  @Override
  public String audienceParameter() {
    return "?";
  }

  @Override
  public void deferForeignKeys(Connection connection) throws SQLException {
    try (var statement = connection.createStatement()) {
      statement.execute("PRAGMA defer_foreign_keys = ON");
    }
  }

  @Override
  public long[] insert(Connection connection, List<Row> rows) throws SQLException {
    long[] sequences = new long[rows.size()];
    try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
      for (int i = 0; i < rows.size(); i++) {
        Row row = rows.get(i);
        bindId(insert, 1, row.id());
        insert.setString(2, row.sender());
        insert.setString(3, row.text());
        insert.setString(4, row.audienceJson());
        bindTimestamp(insert, 5, row.timestamp());
        bindId(insert, 6, row.replyTo());
        try (ResultSet generated = insert.executeQuery()) {
          generated.next();
          sequences[i] = generated.getLong(1);
        }
      }
    }
    return sequences;
  }
}
