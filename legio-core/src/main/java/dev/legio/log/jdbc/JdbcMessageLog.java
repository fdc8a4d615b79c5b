package dev.legio.log.jdbc;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import dev.legio.log.ImportResult;
import dev.legio.log.InvalidMessageException;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogException;
import dev.legio.log.MessageThread;
import dev.legio.log.Names;
import dev.legio.log.NewMessage;
import dev.legio.log.PruneResult;
import dev.legio.log.StorableText;
import dev.legio.log.Timestamps;
import dev.legio.log.Visibility;
import java.io.Closeable;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The message log on a SQL database (SQLite or PostgreSQL, see {@link Dialect}).
 *
 * <p>Tables: {@code nuntii} holds the messages, in Legio's columns plus {@code seq}; {@code
 * nuntius_audience} holds one row per (name, seq) for each name that sees the message by name (its
 * audience names and its sender, see {@link Visibility#namedViewers}), so that "the newest 50
 * messages vorenus may see" is two short index range scans (its name, and {@code all}) instead of a
 * scan of the log. Writes go through a {@link GroupCommitWriter}, which writes the appends sharing
 * a transaction together ({@link PendingAppends}); reads use a connection pool.
 */
public final class JdbcMessageLog implements MessageLog {
  private static final String COLUMNS =
      "n.seq, n.id, n.sender, n.text, n.audience, n.timestamp, n.reply_to";
  private static final String VISIBLE =
      "SELECT "
          + COLUMNS
          + " FROM nuntii n JOIN ("
          + " SELECT seq FROM (SELECT seq FROM nuntius_audience WHERE name = ? AND seq > ? AND seq < ?"
          + " ORDER BY seq DESC LIMIT ?) mine"
          + " UNION"
          + " SELECT seq FROM (SELECT seq FROM nuntius_audience WHERE name = 'all' AND seq > ?"
          + " AND seq < ?"
          + " ORDER BY seq DESC LIMIT ?) everyone"
          + " ORDER BY seq DESC LIMIT ?) v ON n.seq = v.seq ORDER BY n.seq";
  private static final String HISTORY =
      "SELECT * FROM (SELECT "
          + COLUMNS
          + " FROM nuntii n WHERE n.seq > ? AND n.seq < ? ORDER BY n.seq DESC LIMIT ?) h ORDER BY seq";
  private static final String FIND = "SELECT " + COLUMNS + " FROM nuntii n WHERE n.id = ?";
  private static final String ANCESTORS =
      "WITH RECURSIVE chain(id) AS (SELECT reply_to FROM nuntii WHERE id = ?"
          + " UNION SELECT p.reply_to FROM nuntii p JOIN chain c ON p.id = c.id)"
          + " SELECT "
          + COLUMNS
          + " FROM nuntii n JOIN chain c ON n.id = c.id ORDER BY n.seq";
  private static final String DESCENDANTS =
      "WITH RECURSIVE below(id) AS (SELECT id FROM nuntii WHERE reply_to = ?"
          + " UNION SELECT r.id FROM nuntii r JOIN below b ON r.reply_to = b.id)"
          + " SELECT "
          + COLUMNS
          + " FROM nuntii n JOIN below b ON n.id = b.id ORDER BY n.seq";
  private static final String KEEP_FOR_PRUNE =
      "WITH RECURSIVE keep(id) AS ("
          + " SELECT reply_to FROM nuntii WHERE timestamp >= ? AND reply_to IS NOT NULL"
          + " UNION SELECT p.reply_to FROM nuntii p JOIN keep k ON p.id = k.id"
          + " WHERE p.reply_to IS NOT NULL)";
  private static final String PRUNED =
      KEEP_FOR_PRUNE
          + " SELECT "
          + COLUMNS
          + " FROM nuntii n WHERE n.timestamp < ? AND n.id NOT IN (SELECT id FROM keep)"
          + " ORDER BY n.seq";
  private static final int MAX_LIMIT = 100_000;

  /**
   * Message ids are UUIDv7 (RFC 9562): unique like any UUID, but time-ordered, so new ids go to the
   * end of the id index instead of dirtying a random page of it on every append.
   */
  private static final TimeBasedEpochGenerator IDS = Generators.timeBasedEpochGenerator();

  private final Dialect dialect;
  private final DataSource readers;
  private final GroupCommitWriter writer;
  private final List<Closeable> resources;
  private final long maxTextBytes;
  private final Clock clock;

  /** Messages appended since this log was opened ({@link #appendedSinceOpen}). */
  private final java.util.concurrent.atomic.LongAdder appendedCount =
      new java.util.concurrent.atomic.LongAdder();

  JdbcMessageLog(
      Dialect dialect,
      DataSource readers,
      DataSource writes,
      java.util.function.Supplier<java.util.Optional<String>> fileProblem,
      List<Closeable> resources,
      long maxTextBytes,
      Clock clock) {
    this.dialect = dialect;
    this.readers = readers;
    this.writer = new GroupCommitWriter(writes, dialect, fileProblem);
    this.resources = resources;
    this.maxTextBytes = maxTextBytes;
    this.clock = clock;
  }

  /** True while a probe write of {@link #writerProblem} is under way. */
  private final java.util.concurrent.atomic.AtomicBoolean probing =
      new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * What keeps this log's writer from writing now ({@link WriterHealth}: a transaction stalled on
   * the database, or the last write failed), or empty. While the last write failed, starts a probe
   * (a transaction with {@link Dialect#probeWrite}, at most one at a time, on a thread of its own)
   * so that a node nobody writes through, being out of rotation, still learns that the database
   * takes writes again.
   */
  public java.util.Optional<String> writerProblem() {
    WriterHealth health = writer.health();
    java.util.Optional<String> problem = health.problem();
    if (health.failing() && probing.compareAndSet(false, true)) {
      Thread.ofVirtual()
          .name("legio-writer-probe")
          .start(
              () -> {
                try {
                  writer.write(
                      tx -> {
                        dialect.probeWrite(tx.connection());
                        return null;
                      });
                } catch (RuntimeException e) {
                  // logged by the writer; the health says it failed
                } finally {
                  probing.set(false);
                }
              });
    }
    return problem;
  }

  // ---------------------------------------------------------------- writes

  /** This log's writer, for other stores on the same database (see {@link SharedWriter}). */
  public SharedWriter sharedWriter() {
    return new SharedWriter() {
      @Override
      public int[] executeUpdates(List<Update> updates) {
        return writer.write(tx -> runUpdates(tx, updates));
      }

      @Override
      public boolean writes(MessageLog log) {
        return log == JdbcMessageLog.this;
      }

      @Override
      public Appended appendWith(NewMessage message, List<Update> updates) {
        Batch batch = appendAll(List.of(message), updates);
        return new Appended(batch.stored().get(0), batch.counts());
      }
    };
  }

  static int[] runUpdates(WriteTransaction tx, List<SharedWriter.Update> updates)
      throws SQLException {
    int[] counts = new int[updates.size()];
    for (int i = 0; i < counts.length; i++) {
      PreparedStatement statement = tx.prepare(updates.get(i).sql());
      updates.get(i).binder().bind(statement);
      counts[i] = statement.executeUpdate();
    }
    return counts;
  }

  @Override
  public Message append(NewMessage message) {
    return appendAll(List.of(message)).get(0);
  }

  @Override
  public List<Message> appendAll(List<NewMessage> messages) {
    return appendAll(messages, List.of()).stored();
  }

  /** Messages as stored, and the update counts of the statements run with them. */
  private record Batch(List<Message> stored, int[] counts) {}

  /**
   * Appends {@code messages} and runs {@code alongside} in the same transaction. The rows are
   * queued and written with those of every other caller sharing the transaction ({@link
   * PendingAppends}); the reply_to check happens there too.
   */
  private Batch appendAll(List<NewMessage> messages, List<SharedWriter.Update> alongside) {
    List<Dialect.Row> rows = new ArrayList<>(messages.size());
    for (NewMessage m : messages) {
      checkText(m.text());
      rows.add(
          new Dialect.Row(
              m.id() != null ? m.id() : IDS.generate(),
              m.sender(),
              m.text(),
              AudienceJson.write(m.audience()),
              Visibility.namedViewers(m.sender(), m.audience()),
              Timestamps.truncate(clock.instant()),
              m.replyTo()));
    }
    PendingAppends.Entry appended = writer.write(tx -> tx.append(rows, alongside));
    appendedCount.add(rows.size());
    long[] sequences = appended.sequences();
    List<Message> stored = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      Dialect.Row row = rows.get(i);
      stored.add(
          new Message(
              sequences[i],
              row.id(),
              row.sender(),
              row.text(),
              messages.get(i).audience(),
              row.timestamp(),
              row.replyTo()));
    }
    return new Batch(stored, appended.counts());
  }

  @Override
  public ImportResult importMessages(List<Message> messages) {
    for (Message m : messages) {
      try {
        checkText(m.text());
      } catch (InvalidMessageException e) {
        throw new InvalidMessageException(
            "message " + m.id() + " cannot be imported: " + e.getMessage());
      }
    }
    return writer.write(
        tx -> {
          List<Dialect.Row> rows = new ArrayList<>();
          List<Message> kept = new ArrayList<>();
          Set<UUID> inBatch = new HashSet<>();
          long present = 0;
          long unlinked = 0;
          for (Message m : messages) {
            if (inBatch.contains(m.id()) || exists(tx, m.id())) {
              present++;
              continue;
            }
            UUID parent = m.replyTo();
            if (parent != null && !inBatch.contains(parent) && !exists(tx, parent)) {
              parent = null;
              unlinked++;
            }
            inBatch.add(m.id());
            kept.add(m);
            rows.add(
                new Dialect.Row(
                    m.id(),
                    m.sender(),
                    m.text(),
                    AudienceJson.write(m.audience()),
                    Visibility.namedViewers(m.sender(), m.audience()),
                    Timestamps.truncate(m.timestamp()),
                    parent));
          }
          if (!rows.isEmpty()) {
            tx.flush();
            dialect.insert(tx, rows);
          }
          return new ImportResult(rows.size(), present, unlinked);
        });
  }

  @Override
  public PruneResult prune(Instant olderThan, Archive archive) {
    // The writer may run the transaction again: the archive must not get the messages twice.
    Archive once = new ArchivedOnce(archive);
    return writer.write(
        tx -> {
          List<Message> removed = new ArrayList<>();
          try (PreparedStatement select = tx.connection().prepareStatement(PRUNED)) {
            dialect.bindTimestamp(select, 1, olderThan);
            dialect.bindTimestamp(select, 2, olderThan);
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                removed.add(read(rows));
              }
            }
          }
          long old;
          try (PreparedStatement count =
              tx.connection().prepareStatement("SELECT count(*) FROM nuntii WHERE timestamp < ?")) {
            dialect.bindTimestamp(count, 1, olderThan);
            try (ResultSet rows = count.executeQuery()) {
              rows.next();
              old = rows.getLong(1);
            }
          }
          try {
            once.write(removed);
          } catch (IOException e) {
            throw new MessageLogException(
                "archiving the messages to prune failed, so none were removed: " + e.getMessage(),
                e);
          }
          dialect.deferForeignKeys(tx);
          // nuntius_audience rows go with their message (ON DELETE CASCADE).
          try (PreparedStatement delete =
              tx.connection().prepareStatement("DELETE FROM nuntii WHERE seq = ?")) {
            for (Message m : removed) {
              delete.setLong(1, m.sequence());
              delete.addBatch();
            }
            delete.executeBatch();
          }
          return new PruneResult(removed, old - removed.size());
        });
  }

  private void checkText(String text) {
    int bad = StorableText.firstUnstorable(text);
    if (bad >= 0) {
      throw new InvalidMessageException(
          "text contains "
              + StorableText.describe(text, bad)
              + (text.charAt(bad) == 0
                  ? ": remove it; the log stores text, not binary data"
                  : ": it is not valid Unicode; fix the text's encoding"));
    }
    long bytes = StorableText.utf8Length(text);
    if (bytes > maxTextBytes) {
      throw new InvalidMessageException(
          "text is "
              + bytes
              + " bytes, more than the maximum of "
              + maxTextBytes
              + " (praetorium.max_message_bytes in legio.toml): shorten it or send it in several messages");
    }
  }

  private boolean exists(WriteTransaction tx, UUID id) throws SQLException {
    PreparedStatement check = tx.prepare("SELECT 1 FROM nuntii WHERE id = ?");
    dialect.bindId(check, 1, id);
    try (ResultSet row = check.executeQuery()) {
      return row.next();
    }
  }

  // ---------------------------------------------------------------- reads

  @Override
  public Optional<Message> find(UUID id) {
    List<Message> found = query(FIND, s -> dialect.bindId(s, 1, id));
    return found.stream().findFirst();
  }

  @Override
  public List<Message> visibleTo(String viewer, int limit) {
    return visibleTo(viewer, 0, limit);
  }

  @Override
  public List<Message> visibleTo(String viewer, long afterSequence, int limit) {
    return visibleTo(viewer, afterSequence, Long.MAX_VALUE, limit);
  }

  @Override
  public List<Message> visibleTo(
      String viewer, long afterSequence, long beforeSequence, int limit) {
    Names.require(viewer, "viewer");
    if (Names.ALL.equals(viewer)) {
      throw new InvalidMessageException("'all' is an audience, not a viewer: name one viewer");
    }
    checkLimit(limit);
    if (Names.seesEverything(viewer)) {
      return history(afterSequence, beforeSequence, limit);
    }
    return query(
        VISIBLE,
        s -> {
          s.setString(1, viewer);
          s.setLong(2, afterSequence);
          s.setLong(3, beforeSequence);
          s.setInt(4, limit);
          s.setLong(5, afterSequence);
          s.setLong(6, beforeSequence);
          s.setInt(7, limit);
          s.setInt(8, limit);
        });
  }

  @Override
  public List<Message> history(int limit) {
    checkLimit(limit);
    return history(0, Long.MAX_VALUE, limit);
  }

  private List<Message> history(long afterSequence, long beforeSequence, int limit) {
    return query(
        HISTORY,
        s -> {
          s.setLong(1, afterSequence);
          s.setLong(2, beforeSequence);
          s.setInt(3, limit);
        });
  }

  @Override
  public MessageThread thread(UUID id) {
    Message message =
        find(id)
            .orElseThrow(
                () -> new InvalidMessageException("no message with id " + id + " in the log"));
    return new MessageThread(
        query(ANCESTORS, s -> dialect.bindId(s, 1, id)),
        message,
        query(DESCENDANTS, s -> dialect.bindId(s, 1, id)));
  }

  @Override
  public long size() {
    return scalar("SELECT count(*) FROM nuntii");
  }

  @Override
  public long lastSequence() {
    return scalar("SELECT coalesce(max(seq), 0) FROM nuntii");
  }

  @Override
  public long appendedSinceOpen() {
    return appendedCount.sum();
  }

  @Override
  public long maxTextBytes() {
    return maxTextBytes;
  }

  private static void checkLimit(int limit) {
    if (limit < 0 || limit > MAX_LIMIT) {
      throw new InvalidMessageException(
          "limit " + limit + " is out of range: use 0 to " + MAX_LIMIT);
    }
  }

  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private List<Message> query(String sql, Binder binder) {
    try (Connection connection = readers.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      binder.bind(statement);
      List<Message> result = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          result.add(read(rows));
        }
      }
      return result;
    } catch (SQLException e) {
      throw new MessageLogException(
          "reading the " + dialect.name() + " log failed: " + e.getMessage(), e);
    }
  }

  private long scalar(String sql) {
    try (Connection connection = readers.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet row = statement.executeQuery()) {
      row.next();
      return row.getLong(1);
    } catch (SQLException e) {
      throw new MessageLogException(
          "reading the " + dialect.name() + " log failed: " + e.getMessage(), e);
    }
  }

  private Message read(ResultSet row) throws SQLException {
    return new Message(
        row.getLong(1),
        dialect.readId(row, 2),
        row.getString(3),
        row.getString(4),
        AudienceJson.read(row.getString(5)),
        dialect.readTimestamp(row, 6),
        dialect.readId(row, 7));
  }

  @Override
  public void close() {
    writer.close();
    for (Closeable resource : resources) {
      try {
        resource.close();
      } catch (IOException e) {
        throw new MessageLogException("closing the " + dialect.name() + " log failed", e);
      }
    }
  }
}
