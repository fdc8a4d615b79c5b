package dev.legio.log.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** What differs between the SQL databases behind {@link JdbcMessageLog}. */
interface Dialect extends SqlValues {

  /** The placeholder for the audience JSON in an INSERT ("?" or "?::jsonb"). */
  String audienceParameter();

  /**
   * What a write's failure says to the person reading it: the database's message, and what to do
   * where the dialect knows (SQLite's file held locked by another program).
   */
  default String explain(SQLException failure) {
    return failure.getMessage();
  }

  /**
   * Whether a write that failed with {@code failure} was refused for what it holds (a constraint it
   * breaks, a value its column cannot hold) rather than because the database cannot write now:
   * {@link ContentRefusal}'s rules.
   */
  boolean refusedForContent(SQLException failure);

  /**
   * A write that changes nothing a reader sees, inside the current write transaction, for the
   * writer's health probe ({@link JdbcMessageLog#writerProblem}): it must fail wherever a real
   * write would (a database that turned read-only, a standby after a failover, a lock), so a probe
   * that succeeds means writes succeed. A bare {@code SELECT 1} would not: it succeeds on a
   * read-only database.
   */
  void probeWrite(Connection connection) throws SQLException;

  /** Prepares a new writer connection (called once per connection). */
  void configureWriter(Connection connection) throws SQLException;

  /** Starts a write transaction; once it returns, this writer alone may write until commit. */
  void begin(WriteTransaction tx) throws SQLException;

  void commit(WriteTransaction tx) throws SQLException;

  void rollback(Connection connection) throws SQLException;

  /**
   * Inserts the rows into {@code nuntii}, and one {@code nuntius_audience} row per name of each
   * row's {@link Row#viewers}, inside the current transaction, and returns the sequence number each
   * one got, in order. Sequence numbers must grow in commit order, also between processes. Runs its
   * statements through {@link WriteTransaction#statement} (the flush of queued appends calls it).
   */
  long[] insert(WriteTransaction tx, List<Row> rows) throws SQLException;

  /** Which of {@code ids} name a message in the log (as seen inside the current transaction). */
  Set<UUID> existing(WriteTransaction tx, Collection<UUID> ids) throws SQLException;

  /** Defers foreign-key checks to the commit of the current transaction. */
  void deferForeignKeys(WriteTransaction tx) throws SQLException;

  /**
   * A message row ready to insert.
   *
   * @param viewers the names it is indexed under in {@code nuntius_audience} (see {@link
   *     dev.legio.log.Visibility#namedViewers})
   */
  record Row(
      UUID id,
      String sender,
      String text,
      String audienceJson,
      Collection<String> viewers,
      Instant timestamp,
      UUID replyTo) {}
}
