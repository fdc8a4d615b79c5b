package dev.legio.log.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** What differs between the SQL databases behind {@link JdbcMessageLog}. */
interface Dialect extends SqlValues {

  /** The placeholder for the audience JSON in an INSERT ("?" or "?::jsonb"). */
  String audienceParameter();

  /** Prepares a new writer connection (called once per connection). */
  void configureWriter(Connection connection) throws SQLException;

  /** Starts a write transaction; once it returns, this writer alone may write until commit. */
  void begin(WriteTransaction tx) throws SQLException;

  void commit(WriteTransaction tx) throws SQLException;

  void rollback(Connection connection) throws SQLException;

  /**
   * Inserts the rows into {@code nuntii} inside the current transaction and returns the sequence
   * number each one got. Sequence numbers must grow in commit order, also between processes.
   */
  long[] insert(WriteTransaction tx, List<Row> rows) throws SQLException;

  /** Defers foreign-key checks to the commit of the current transaction. */
  void deferForeignKeys(WriteTransaction tx) throws SQLException;

  /** A message row ready to insert. */
  record Row(
      UUID id, String sender, String text, String audienceJson, Instant timestamp, UUID replyTo) {}
}
