package dev.legio.usage;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rows {@link RetryingUsageWriter} keeps to write again, in the order they were given, and
 * their limit.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>At most {@link RetryingUsageWriter.Backoff#limit} rows are kept: past that the oldest are
 *       dropped, and a warning counts them (at most one a minute).
 *   <li>Every row dropped is returned ({@link Dropped}), with why (the limit and the write's last
 *       failure), for the writer to tell the {@link RetryingUsageWriter.Lost} listener once it has
 *       released its monitor (a listener calling the writer, or slow, would otherwise hold up every
 *       caller of the writer): none is dropped silently.
 *   <li>The rows an attempt could not write go back before the rows kept meanwhile, in their order.
 *   <li>The minute between warnings is read from the ticker it is given ({@link System#nanoTime} in
 *       the writer), so a test moves time instead of waiting.
 * </ul>
 *
 * Not thread-safe: the writer calls it holding its monitor. Its warnings are the writer's (logged
 * under {@link RetryingUsageWriter}'s name).
 */
final class KeptRows {
  private static final Logger log = LoggerFactory.getLogger(RetryingUsageWriter.class);

  /** How long a warning about dropped rows stays the last one. */
  private static final long DROP_WARNING_NANOS = Duration.ofMinutes(1).toNanos();

  /**
   * Rows dropped past the limit by one call: how many, the first one, and why.
   *
   * @param count at least 1
   */
  record Dropped(int count, LedgerEntry first, String why) {
    /** Tells {@code lost} of these rows. */
    void tell(RetryingUsageWriter.Lost lost) {
      lost.rows(count, first, why);
    }
  }

  private final Deque<LedgerEntry> rows = new ArrayDeque<>();
  private final int limit;
  private final LongSupplier nanoTime;
  private int droppedSinceWarning;
  private boolean warned;
  private long lastDropWarning;

  /**
   * @param nanoTime the ticker the minute between warnings is read from
   */
  KeptRows(int limit, LongSupplier nanoTime) {
    this.limit = limit;
    this.nanoTime = nanoTime;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  int size() {
    return rows.size();
  }

  /**
   * Keeps {@code entries} behind the rows kept; drops the oldest past the limit and returns them,
   * if any, to be told to the {@link RetryingUsageWriter.Lost} listener.
   */
  Optional<Dropped> addAll(List<LedgerEntry> entries, String lastFailure) {
    rows.addAll(entries);
    return dropPastLimit(lastFailure);
  }

  /**
   * Keeps {@code back}, the rows an attempt could not write, before the rows kept meanwhile, in
   * their order; drops the oldest past the limit and returns them, if any, as {@link #addAll} does.
   */
  Optional<Dropped> putBack(List<LedgerEntry> back, String lastFailure) {
    for (int i = back.size() - 1; i >= 0; i--) {
      rows.addFirst(back.get(i));
    }
    return dropPastLimit(lastFailure);
  }

  /** Every row kept, in order; none is kept after. */
  List<LedgerEntry> takeAll() {
    List<LedgerEntry> all = List.copyOf(rows);
    rows.clear();
    return all;
  }

  /**
   * Drops the oldest rows past the limit and returns them, if any, with {@code lastFailure} in why;
   * warns at most once a minute.
   */
  private Optional<Dropped> dropPastLimit(String lastFailure) {
    int count = rows.size() - limit;
    if (count <= 0) {
      return Optional.empty();
    }
    LedgerEntry first = rows.removeFirst();
    for (int i = 1; i < count; i++) {
      rows.removeFirst();
    }
    droppedSinceWarning += count;
    long now = nanoTime.getAsLong();
    if (!warned || now - lastDropWarning >= DROP_WARNING_NANOS) {
      log.warn(
          "the usage of {} turns was dropped unrecorded: more than {} waited to be written"
              + " while the database failed ({}); legio usage will not count them",
          droppedSinceWarning,
          limit,
          lastFailure);
      droppedSinceWarning = 0;
      warned = true;
      lastDropWarning = now;
    }
    return Optional.of(
        new Dropped(
            count,
            first,
            "more than " + limit + " turns waited to be written (" + lastFailure + ")"));
  }
}
