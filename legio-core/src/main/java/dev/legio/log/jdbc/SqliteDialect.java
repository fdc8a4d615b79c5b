package dev.legio.log.jdbc;

import dev.legio.log.Timestamps;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
  private static final String INSERT_VIEWER =
      "INSERT INTO nuntius_audience (name, seq) VALUES (?, ?)";
  private static final String EXISTS = "SELECT 1 FROM nuntii WHERE id = ?";

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

  /**
   * The writer stays in JDBC auto-commit mode and brackets its transactions itself: the driver's
   * own transaction mode would begin the next transaction, and take the write lock, as soon as one
   * commits, keeping other processes from writing while this one is idle.
   */
  /**
   * SQLite's "database is locked" (busy or locked: another connection held the write lock for the
   * whole busy time-out, 10 s) names the program to look for: one holding a write transaction open
   * on the file (a {@code sqlite3} shell after {@code BEGIN}, a backup or sync tool), not Legio's
   * own processes, which hold it for milliseconds.
   */
  @Override
  public String explain(SQLException failure) {
    int code = failure.getErrorCode() & 0xff; // the primary result code of an extended one
    if (code == 5 || code == 6) { // SQLITE_BUSY, SQLITE_LOCKED
      return failure.getMessage()
          + ": another program has held the database file's write lock for over 10 s (a sqlite3"
          + " shell inside a transaction, a backup or sync tool); end it, then send the request"
          + " again";
    }
    return failure.getMessage();
  }

  @Override
  public boolean refusedForContent(SQLException failure) {
    return ContentRefusal.bySqlite(failure);
  }

  /**
   * Writes the database header's {@code user_version} (which Legio does not use) back unchanged:
   * SQLite writes the header page at the commit, so a full disk or a file that cannot be written
   * fails the probe, as the write lock {@code BEGIN IMMEDIATE} took proved nothing else holds it.
   */
  @Override
  public void probeWrite(Connection connection) throws SQLException {
    try (java.sql.Statement s = connection.createStatement()) {
      int version;
      try (java.sql.ResultSet r = s.executeQuery("PRAGMA user_version")) {
        r.next();
        version = r.getInt(1);
      }
      s.execute("PRAGMA user_version = " + version);
    }
  }

  @Override
  public void configureWriter(Connection connection) throws SQLException {
    connection.setAutoCommit(true);
    execute(connection, "PRAGMA cache_size = -65536");
    // A 64 MB page cache, and a write-ahead log of up to ~40 MB before the commit that crosses
    // it copies the log back into the database (with an fsync): fewer, larger checkpoints keep
    // that stall off most commits. (Running checkpoints from a background thread instead was
    // measured slower here: its fsyncs stalled the writer's log writes.)
    execute(connection, "PRAGMA wal_autocheckpoint = 10000");
  }

  @Override
  public void begin(WriteTransaction tx) throws SQLException {
    // Prepared once per connection: parsing even "COMMIT" costs as much as a small insert.
    tx.prepare("BEGIN IMMEDIATE").execute();
  }

  @Override
  public void commit(WriteTransaction tx) throws SQLException {
    tx.prepare("COMMIT").execute();
  }

  @Override
  public void rollback(Connection connection) throws SQLException {
    try {
      execute(connection, "ROLLBACK");
    } catch (SQLException noTransaction) {
      // SQLite may already have rolled back (e.g. on SQLITE_FULL); nothing is left to undo.
    }
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (var statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  @Override
  public void deferForeignKeys(WriteTransaction tx) throws SQLException {
    tx.prepare("PRAGMA defer_foreign_keys = ON").execute();
  }

  @Override
  public long[] insert(WriteTransaction tx, List<Row> rows) throws SQLException {
    long[] sequences = new long[rows.size()];
    PreparedStatement insert = tx.statement(INSERT);
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
    PreparedStatement viewers = tx.statement(INSERT_VIEWER);
    for (int i = 0; i < rows.size(); i++) {
      for (String name : rows.get(i).viewers()) {
        viewers.setString(1, name);
        viewers.setLong(2, sequences[i]);
        viewers.addBatch();
      }
    }
    viewers.executeBatch();
    return sequences;
  }

  /** One look-up per id: SQLite runs in this process, so separate statements cost no round trip. */
  @Override
  public Set<UUID> existing(WriteTransaction tx, Collection<UUID> ids) throws SQLException {
    Set<UUID> found = new HashSet<>();
    PreparedStatement check = tx.statement(EXISTS);
    for (UUID id : ids) {
      bindId(check, 1, id);
      try (ResultSet row = check.executeQuery()) {
        if (row.next()) {
          found.add(id);
        }
      }
    }
    return found;
  }
}
