package dev.legio.log.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * PostgreSQL: native uuid, timestamptz and jsonb columns. A PostgreSQL sequence hands out numbers
 * in call order, not commit order (a reader could see 11 before 10 commits, and then skip 10
 * forever), so numbers come from a one-row counter instead: updating it locks the row until commit,
 * so the next writer, in this process or another node, gets higher numbers and commits later.
 */
final class PostgresDialect implements Dialect {
  private static final String ALLOCATE =
      "UPDATE nuntii_sequence SET last_value = last_value + ? RETURNING last_value";
  private static final String INSERT =
      "INSERT INTO nuntii (seq, id, sender, text, audience, timestamp, reply_to)"
          + " VALUES (?, ?, ?, ?, ?::jsonb, ?, ?)";

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public void bindId(PreparedStatement statement, int index, UUID id) throws SQLException {
    statement.setObject(index, id);
  }

  @Override
  public UUID readId(ResultSet row, int column) throws SQLException {
    return row.getObject(column, UUID.class);
  }

  @Override
  public void bindTimestamp(PreparedStatement statement, int index, Instant timestamp)
      throws SQLException {
    statement.setObject(index, timestamp.atOffset(ZoneOffset.UTC));
  }

  @Override
  public Instant readTimestamp(ResultSet row, int column) throws SQLException {
    OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
    return value.toInstant();
  }

  @Override
  public String audienceParameter() {
    return "?::jsonb";
  }

  @Override
  public void configureWriter(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
  }

  @Override
  public void begin(WriteTransaction tx) {
    // The driver begins a transaction with the first statement.
  }

  @Override
  public void commit(WriteTransaction tx) throws SQLException {
    tx.connection().commit();
  }

  @Override
  public void rollback(Connection connection) throws SQLException {
    connection.rollback();
  }

  @Override
  public void deferForeignKeys(WriteTransaction tx) throws SQLException {
    tx.prepare("SET CONSTRAINTS ALL DEFERRED").execute();
  }

  @Override
  public long[] insert(WriteTransaction tx, List<Row> rows) throws SQLException {
    long last;
    PreparedStatement allocate = tx.prepare(ALLOCATE);
    allocate.setLong(1, rows.size());
    try (ResultSet result = allocate.executeQuery()) {
      result.next();
      last = result.getLong(1);
    }
    long[] sequences = new long[rows.size()];
    PreparedStatement insert = tx.prepare(INSERT);
    {
      for (int i = 0; i < rows.size(); i++) {
        Row row = rows.get(i);
        sequences[i] = last - rows.size() + 1 + i;
        insert.setLong(1, sequences[i]);
        bindId(insert, 2, row.id());
        insert.setString(3, row.sender());
        insert.setString(4, row.text());
        insert.setString(5, row.audienceJson());
        bindTimestamp(insert, 6, row.timestamp());
        bindId(insert, 7, row.replyTo());
        insert.addBatch();
      }
      insert.executeBatch();
    }
    return sequences;
  }
}
