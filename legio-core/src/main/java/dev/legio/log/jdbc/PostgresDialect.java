package dev.legio.log.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * PostgreSQL: native uuid, timestamptz and jsonb columns. A PostgreSQL sequence hands out numbers
 * in call order, not commit order (a reader could see 11 before 10 commits, and then skip 10
 * forever), so numbers come from a one-row counter instead: updating it locks the row until commit,
 * so the next writer, in this process or another node, gets higher numbers and commits later.
 */
final class PostgresDialect implements Dialect {
  /**
   * One statement, one round trip, whatever the number of rows: takes the rows' sequence numbers
   * from the counter, inserts the messages and their viewer rows. The rows arrive as arrays (one
   * per column, unnested in order), so the statement's text never changes and stays prepared on the
   * server.
   */
  private static final String INSERT =
      "WITH allocated AS ("
          + " UPDATE nuntii_sequence SET last_value = last_value + ? RETURNING last_value),"
          + " messages AS ("
          + " INSERT INTO nuntii (seq, id, sender, text, audience, timestamp, reply_to)"
          + " SELECT a.last_value - ? + m.ord, m.id::uuid, m.sender, m.text, m.audience::jsonb,"
          + " m.ts::timestamptz, m.reply_to::uuid"
          + " FROM allocated a, unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[],"
          + " ?::text[]) WITH ORDINALITY AS m(id, sender, text, audience, ts, reply_to, ord)),"
          + " viewers AS ("
          + " INSERT INTO nuntius_audience (name, seq)"
          + " SELECT v.name, a.last_value - ? + v.ord"
          + " FROM allocated a, unnest(?::text[], ?::int[]) AS v(name, ord))"
          + " SELECT last_value FROM allocated";

  private static final String EXISTING = "SELECT id FROM nuntii WHERE id = ANY(?::uuid[])";

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
  public boolean refusedForContent(SQLException failure) {
    return ContentRefusal.byPostgres(failure);
  }

  /**
   * An update of the log's table that matches no row, which a read-only transaction refuses ({@code
   * default_transaction_read_only}), and a transaction id, which a standby refuses ("cannot assign
   * TransactionIds during recovery") and whose commit writes a commit record to the write-ahead
   * log.
   */
  @Override
  public void probeWrite(Connection connection) throws SQLException {
    try (java.sql.Statement s = connection.createStatement()) {
      s.executeUpdate("UPDATE nuntii SET sender = sender WHERE false");
      s.execute("SELECT txid_current()");
    }
  }

  @Override
  public void configureWriter(Connection connection) throws SQLException {
    try (java.sql.Statement s = connection.createStatement()) {
      s.execute(IDLE_IN_TRANSACTION_LIMIT);
    }
    connection.setAutoCommit(false);
  }

  /**
   * Ends, on the server, a transaction of Legio's whose client has gone quiet in the middle of it
   * (its node lost the network to the database, was frozen or killed between a statement and the
   * commit): the server rolls it back and frees its locks, the counter row among them, after 30 s
   * (the default lease time), instead of holding them until the dead connection is noticed (TCP
   * keepalive: two hours by default), which would stop every other node's writes meanwhile. Legio's
   * transactions never wait on their client that long: they run their statements back to back.
   */
  static final String IDLE_IN_TRANSACTION_LIMIT = "SET idle_in_transaction_session_timeout = '30s'";

  /**
   * How long, in seconds, a connection of Legio's waits for the database's next bytes before it
   * gives up ({@code socketTimeout}), unless {@code postgres_url} names its own ({@code
   * socketTimeout=0} waits for ever). A node whose connection stalled (the network to the database
   * lost, a frozen proxy) otherwise waited for ever on its next read: every request and turn then
   * hung, and so did its shutdown, in the writer. Legio's statements take milliseconds; 60 s leaves
   * room for a prune of a large log.
   */
  static final int SOCKET_TIMEOUT_SECONDS = 60;

  /**
   * {@link #SOCKET_TIMEOUT_SECONDS}, unless {@code url} names a {@code socketTimeout} (read as the
   * driver reads its URL).
   */
  static java.util.OptionalInt socketTimeoutFor(String url) {
    java.util.Properties named = org.postgresql.Driver.parseURL(url, new java.util.Properties());
    return named != null && org.postgresql.PGProperty.SOCKET_TIMEOUT.isPresent(named)
        ? java.util.OptionalInt.empty()
        : java.util.OptionalInt.of(SOCKET_TIMEOUT_SECONDS);
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
    int n = rows.size();
    String[] ids = new String[n];
    String[] senders = new String[n];
    String[] texts = new String[n];
    String[] audiences = new String[n];
    String[] timestamps = new String[n];
    String[] replyTos = new String[n];
    List<String> viewerNames = new ArrayList<>();
    List<Integer> viewerRows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Row row = rows.get(i);
      ids[i] = row.id().toString();
      senders[i] = row.sender();
      texts[i] = row.text();
      audiences[i] = row.audienceJson();
      timestamps[i] = row.timestamp().toString();
      replyTos[i] = row.replyTo() == null ? null : row.replyTo().toString();
      for (String name : row.viewers()) {
        viewerNames.add(name);
        viewerRows.add(i + 1);
      }
    }
    PreparedStatement insert = tx.statement(INSERT);
    Connection c = insert.getConnection();
    insert.setLong(1, n);
    insert.setLong(2, n);
    insert.setArray(3, c.createArrayOf("text", ids));
    insert.setArray(4, c.createArrayOf("text", senders));
    insert.setArray(5, c.createArrayOf("text", texts));
    insert.setArray(6, c.createArrayOf("text", audiences));
    insert.setArray(7, c.createArrayOf("text", timestamps));
    insert.setArray(8, c.createArrayOf("text", replyTos));
    insert.setLong(9, n);
    insert.setArray(10, c.createArrayOf("text", viewerNames.toArray(String[]::new)));
    insert.setArray(11, c.createArrayOf("int4", viewerRows.toArray(Integer[]::new)));
    long last;
    try (ResultSet result = insert.executeQuery()) {
      result.next();
      last = result.getLong(1);
    }
    long[] sequences = new long[n];
    for (int i = 0; i < n; i++) {
      sequences[i] = last - n + 1 + i;
    }
    return sequences;
  }

  /** One query for all the ids: each statement costs a round trip to the server. */
  @Override
  public Set<UUID> existing(WriteTransaction tx, Collection<UUID> ids) throws SQLException {
    PreparedStatement query = tx.statement(EXISTING);
    query.setArray(
        1,
        query
            .getConnection()
            .createArrayOf("text", ids.stream().map(UUID::toString).toArray(String[]::new)));
    Set<UUID> found = new HashSet<>();
    try (ResultSet rows = query.executeQuery()) {
      while (rows.next()) {
        found.add(rows.getObject(1, UUID.class));
      }
    }
    return found;
  }
}
