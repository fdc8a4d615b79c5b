package dev.legio.usage;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
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
 *   <li>Every row dropped is told to the {@link RetryingUsageWriter.Lost} listener, with why (the
 *       limit and the write's last failure): none is dropped silently.
 *   <li>The rows an attempt could not write go back before the rows kept meanwhile, in their order.
 * </ul>
 *
 * Not thread-safe: the writer calls it holding its monitor. Its warnings are the writer's (logged
 * under {@link RetryingUsageWriter}'s name).
 */
final class KeptRows {
  private static final Logger log = LoggerFactory.getLogger(RetryingUsageWriter.class);

  /** How long a warning about dropped rows stays the last one. */
  private static final long DROP_WARNING_NANOS = Duration.ofMinutes(1).toNanos();

  private final Deque<LedgerEntry> rows = new ArrayDeque<>();
  private final int limit;
  private final RetryingUsageWriter.Lost lost;
  private int droppedSinceWarning;
  private long lastDropWarning;

  KeptRows(int limit, RetryingUsageWriter.Lost lost) {
    this.limit = limit;
    this.lost = lost;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  int size() {
    return rows.size();
  }

  /** Keeps {@code entries} behind the rows kept; drops the oldest past the limit. */
  void addAll(List<LedgerEntry> entries, String lastFailure) {
    rows.addAll(entries);
    dropPastLimit(lastFailure);
  }

  /**
   * Keeps {@code back}, the rows an attempt could not write, before the rows kept meanwhile, in
   * their order; drops the oldest past the limit.
   */
  void putBack(List<LedgerEntry> back, String lastFailure) {
    for (int i = back.size() - 1; i >= 0; i--) {
      rows.addFirst(back.get(i));
    }
    dropPastLimit(lastFailure);
  }

  /** Every row kept, in order; none is kept after. */
  List<LedgerEntry> takeAll() {
    List<LedgerEntry> all = List.copyOf(rows);
    rows.clear();
    return all;
  }

  /**
   * Drops the oldest rows past the limit, told with {@code lastFailure}; warns at most once a
   * minute.
   */
  private void dropPastLimit(String lastFailure) {
    List<LedgerEntry> dropped = new ArrayList<>();
    while (rows.size() > limit) {
      dropped.add(rows.removeFirst());
    }
    if (dropped.isEmpty()) {
      return;
    }
    droppedSinceWarning += dropped.size();
    long now = System.nanoTime();
    if (lastDropWarning == 0 || now - lastDropWarning >= DROP_WARNING_NANOS) {
      log.warn(
          "the usage of {} turns was dropped unrecorded: more than {} waited to be written"
              + " while the database failed ({}); legio usage will not count them",
          droppedSinceWarning,
          limit,
          lastFailure);
      droppedSinceWarning = 0;
      lastDropWarning = now;
    }
    lost.rows(
        dropped.size(),
        dropped.get(0),
        "more than " + limit + " turns waited to be written (" + lastFailure + ")");
  }
}
