package dev.legio.log.jdbc;

import dev.legio.log.InvalidMessageException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The appends queued in one write transaction, written together when it is flushed: before the
 * transaction commits, and before any other statement runs in it (so writes keep their queue
 * order). However many callers share the transaction, the flush is one check of the messages
 * replied to, one insert of all the messages with their viewer rows ({@link Dialect#insert}), then
 * each caller's statements that go with its messages, in queue order.
 *
 * <p>A reply_to must name a message already in the log or earlier among the queued ones; otherwise
 * the flush fails, the transaction rolls back and {@link GroupCommitWriter} runs each caller's work
 * alone, so only the bad request fails.
 */
final class PendingAppends {

  /** One caller's messages and statements; its sequences and update counts are set when flushed. */
  static final class Entry {
    private final List<Dialect.Row> rows;
    private final List<SharedWriter.Update> alongside;
    private long[] sequences;
    private int[] counts;

    private Entry(List<Dialect.Row> rows, List<SharedWriter.Update> alongside) {
      this.rows = rows;
      this.alongside = alongside;
    }

    /** The sequence number of each row, in order; valid once the transaction has committed. */
    long[] sequences() {
      return sequences;
    }

    /** The update counts of the statements run with the rows. */
    int[] counts() {
      return counts;
    }
  }

  private List<Entry> entries = new ArrayList<>();

  Entry add(List<Dialect.Row> rows, List<SharedWriter.Update> alongside) {
    Entry entry = new Entry(rows, alongside);
    entries.add(entry);
    return entry;
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  /** Forgets what is queued (after a failed transaction). */
  void clear() {
    entries = new ArrayList<>();
  }

  /** Writes everything queued; statements it runs through {@code tx} see nothing left queued. */
  void flush(WriteTransaction tx, Dialect dialect) throws SQLException {
    List<Entry> flushing = entries;
    entries = new ArrayList<>();
    List<Dialect.Row> rows = new ArrayList<>();
    Set<UUID> earlier = new HashSet<>();
    Set<UUID> outside = new LinkedHashSet<>();
    for (Entry entry : flushing) {
      for (Dialect.Row row : entry.rows) {
        if (row.replyTo() != null && !earlier.contains(row.replyTo())) {
          outside.add(row.replyTo());
        }
        earlier.add(row.id());
        rows.add(row);
      }
    }
    if (!outside.isEmpty()) {
      Set<UUID> found = dialect.existing(tx, outside);
      for (UUID parent : outside) {
        if (!found.contains(parent)) {
          throw new InvalidMessageException(
              "reply_to "
                  + parent
                  + " names no message in the log: reply to a message that exists, or to none");
        }
      }
    }
    long[] sequences = rows.isEmpty() ? new long[0] : dialect.insert(tx, rows);
    int next = 0;
    for (Entry entry : flushing) {
      entry.sequences = new long[entry.rows.size()];
      System.arraycopy(sequences, next, entry.sequences, 0, entry.sequences.length);
      next += entry.sequences.length;
      entry.counts = new int[entry.alongside.size()];
      for (int i = 0; i < entry.counts.length; i++) {
        PreparedStatement statement = tx.statement(entry.alongside.get(i).sql());
        entry.alongside.get(i).binder().bind(statement);
        entry.counts[i] = statement.executeUpdate();
      }
    }
  }
}
