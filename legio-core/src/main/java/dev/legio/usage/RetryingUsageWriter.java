package dev.legio.usage;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the usage recorder's rows to the {@link UsageLedger}, and keeps the rows a failed write
 * left (the database locked by another program past its busy wait, PostgreSQL out of reach for a
 * moment) to write them again, so that a short fault loses no turn from {@code legio usage}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Rows are written at once, on the caller's thread (the turn listener's), as before. Rows
 *       whose write failed are kept, in order, and written again on a thread of their own: first
 *       {@link Backoff#first} after the failure, then twice as long after each attempt that fails
 *       too, at most {@link Backoff#longest} apart, for as long as the process runs. Neither a turn
 *       nor the listener waits for that.
 *   <li>An attempt writes every kept row in one transaction, all or none, so a kept row is written
 *       once; and a row whose write landed although it seemed to fail (a PostgreSQL commit whose
 *       answer the network lost) is not counted twice when written again: the ledger keeps one row
 *       per {@link LedgerEntry#turnId}.
 *   <li>A row the database refuses for itself never holds the others back: when the kept rows fail
 *       together although the database took other rows since they last failed, they are written one
 *       by one; a row that fails alone is kept, and given up when it fails alone again in a later
 *       such walk (the database having taken other rows in between). Two rows in a row that fail
 *       alone for the first time end a walk (the database is failing again), keeping the rest.
 *   <li>At most {@link Backoff#limit} rows are kept: past that the oldest are dropped, and a
 *       warning counts them (at most one a minute).
 *   <li>{@link #close} waits for an attempt under way, then makes a last one; the rows it cannot
 *       write are logged as lost.
 *   <li>Every row given up (dropped, refused, lost at close) is told to the {@link Lost} listener,
 *       with why: none is dropped silently.
 * </ul>
 *
 * Thread-safe.
 */
public final class RetryingUsageWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RetryingUsageWriter.class);

  /** How long a warning about dropped rows stays the last one. */
  private static final long DROP_WARNING_NANOS = Duration.ofMinutes(1).toNanos();

  /**
   * When kept rows are written again, and how many are kept.
   *
   * @param first the wait before the first attempt after a failure
   * @param longest the longest wait between attempts
   * @param limit the most rows kept; past it the oldest are dropped
   */
  public record Backoff(Duration first, Duration longest, int limit) {
    /** 1 s, doubling to 1 min; 10,000 rows (a few MB). */
    public static final Backoff DEFAULT =
        new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1), 10_000);

    public Backoff {
      if (first.isNegative() || first.isZero() || longest.compareTo(first) < 0 || limit < 1) {
        throw new IllegalArgumentException("a back-off needs 0 < first <= longest and limit >= 1");
      }
    }
  }

  /** Told of rows given up: how many, the first one, and why. */
  @FunctionalInterface
  public interface Lost {
    void rows(int count, LedgerEntry first, String why);
  }

  /** A kept row; {@code failedAlone} once it failed in a write of its own. */
  private static final class Kept {
    final LedgerEntry entry;
    boolean failedAlone;

    Kept(LedgerEntry entry) {
      this.entry = entry;
    }
  }

  private final UsageLedger ledger;
  private final Backoff backoff;
  private final Lost lost;

  /** Successful writes so far (direct or kept rows): proof the database takes rows. */
  private final AtomicLong writes = new AtomicLong();

  // Guarded by this.
  private final Deque<Kept> kept = new ArrayDeque<>();
  private ScheduledExecutorService retries;
  private boolean scheduled;
  private boolean closed;
  private Duration wait;
  private long writesAtLastFailure;
  private int attemptingRows;
  private int droppedSinceWarning;
  private long lastDropWarning;
  private String lastFailure = "";

  /** Serialises attempts: the retry thread's and the last one at close. */
  private final Object attempting = new Object();

  public RetryingUsageWriter(UsageLedger ledger, Backoff backoff, Lost lost) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.lost = Objects.requireNonNull(lost, "lost");
    this.wait = backoff.first();
  }

  /** Writes {@code entries} now; when that fails, keeps them to write them again. */
  public void write(List<LedgerEntry> entries) {
    if (entries.isEmpty()) {
      return;
    }
    try {
      append(entries);
      writes.incrementAndGet();
    } catch (RuntimeException e) {
      keep(entries, e);
    }
  }

  /** How many rows are kept, waiting to be written again (an attempt's under way among them). */
  public synchronized int pending() {
    return kept.size() + attemptingRows;
  }

  private void append(List<LedgerEntry> entries) {
    if (entries.size() == 1) {
      ledger.append(entries.get(0));
    } else {
      ledger.appendAll(entries);
    }
  }

  private void keep(List<LedgerEntry> entries, RuntimeException failure) {
    String why = String.valueOf(failure.getMessage());
    synchronized (this) {
      if (closed) {
        giveUp(entries, "the usage writer was closing: " + why);
        return;
      }
      boolean first = kept.isEmpty() && attemptingRows == 0;
      entries.forEach(e -> kept.addLast(new Kept(e)));
      lastFailure = why;
      writesAtLastFailure = writes.get();
      if (first) {
        log.warn(
            "{}: recording the usage of {} failed ({}); kept, to be written again in {} ms",
            entries.get(0).owner(),
            entries.size() == 1 ? "its turn" : entries.size() + " turns",
            why,
            wait.toMillis());
      } else {
        log.debug("recording the usage of {} turns failed again ({})", entries.size(), why);
      }
      dropPastLimit();
      schedule();
    }
  }

  /** Drops the oldest kept rows past the limit; warns at most once a minute. Holds this. */
  private void dropPastLimit() {
    List<LedgerEntry> dropped = new ArrayList<>();
    while (kept.size() > backoff.limit()) {
      dropped.add(kept.removeFirst().entry);
    }
    if (dropped.isEmpty()) {
      return;
    }
    droppedSinceWarning += dropped.size();
    long now = System.nanoTime();
    if (lastDropWarning == 0 || now - lastDropWarning >= DROP_WARNING_NANOS) {
      log.warn(
          "the usage of {} turns was dropped unrecorded: more than {} waited to be written"
              + " again after failed writes ({}); legio usage will not count them",
          droppedSinceWarning,
          backoff.limit(),
          lastFailure);
      droppedSinceWarning = 0;
      lastDropWarning = now;
    }
    lost.rows(
        dropped.size(),
        dropped.get(0),
        "more than " + backoff.limit() + " turns waited to be written again (" + lastFailure + ")");
  }

  /** Schedules the next attempt after {@link #wait}, unless one is. Holds this. */
  private void schedule() {
    if (scheduled || closed) {
      return;
    }
    if (retries == null) {
      ScheduledThreadPoolExecutor executor =
          new ScheduledThreadPoolExecutor(
              1, Thread.ofPlatform().name("legio-usage-retry").daemon().factory());
      // close() makes the last attempt itself: a scheduled one need not wait for its time.
      executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
      retries = executor;
    }
    scheduled = true;
    retries.schedule(this::retry, wait.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** The retry thread's attempt, and the next one scheduled while rows are kept. */
  private void retry() {
    boolean wrote;
    try {
      wrote = attempt();
    } catch (RuntimeException e) {
      log.error("writing the kept usage rows failed unexpectedly", e);
      wrote = false;
    }
    synchronized (this) {
      scheduled = false;
      wait = wrote ? backoff.first() : min(wait.multipliedBy(2), backoff.longest());
      if (!kept.isEmpty()) {
        schedule();
      }
    }
  }

  /**
   * Writes the kept rows once, by the rules; true when it wrote them all (rows kept meanwhile
   * aside).
   */
  private boolean attempt() {
    synchronized (attempting) {
      List<Kept> rows;
      long writesBefore;
      synchronized (this) {
        rows = new ArrayList<>(kept);
        kept.clear();
        attemptingRows = rows.size();
        writesBefore = writesAtLastFailure;
      }
      if (rows.isEmpty()) {
        return true;
      }
      RuntimeException failure;
      try {
        append(rows.stream().map(k -> k.entry).toList());
        writes.incrementAndGet();
        synchronized (this) {
          attemptingRows = 0;
        }
        log.info("the usage of {} turns kept after a failed write is now recorded", rows.size());
        return true;
      } catch (RuntimeException e) {
        failure = e;
      }
      List<Kept> back = rows;
      if (writes.get() > writesBefore) {
        back = oneByOne(rows, rows.size() == 1 ? failure : null);
      }
      synchronized (this) {
        attemptingRows = 0;
        writesAtLastFailure = writes.get();
        lastFailure = String.valueOf(failure.getMessage());
        for (int i = back.size() - 1; i >= 0; i--) {
          kept.addFirst(back.get(i));
        }
        dropPastLimit();
      }
      if (!back.isEmpty()) {
        log.debug("writing {} kept usage rows failed again ({})", back.size(), lastFailure);
      }
      return back.isEmpty();
    }
  }

  /**
   * Writes {@code rows} one at a time: a row that fails alone a second time is given up, one that
   * fails alone for the first time is kept; two rows in a row failing for the first time (the
   * database is failing again) end the walk, keeping the rest. Returns the rows still to write.
   *
   * @param alreadyFailed the failure of {@code rows}' one row, written alone just now; null to
   *     write it
   */
  private List<Kept> oneByOne(List<Kept> rows, RuntimeException alreadyFailed) {
    List<Kept> still = new ArrayList<>();
    boolean previousFailed = false;
    for (int i = 0; i < rows.size(); i++) {
      Kept row = rows.get(i);
      RuntimeException failure = alreadyFailed;
      if (failure == null) {
        try {
          ledger.append(row.entry);
          writes.incrementAndGet();
          previousFailed = false;
          continue;
        } catch (RuntimeException e) {
          failure = e;
        }
      }
      if (row.failedAlone) {
        String why = String.valueOf(failure.getMessage());
        log.error(
            "{}: the usage of a turn at {} was given up: the database refuses it while it takes"
                + " other rows ({}); legio usage will not count it",
            row.entry.owner(),
            row.entry.at(),
            why);
        lost.rows(1, row.entry, "the database refuses the row: " + why);
        continue;
      }
      row.failedAlone = true;
      still.add(row);
      if (previousFailed) {
        still.addAll(rows.subList(i + 1, rows.size()));
        break;
      }
      previousFailed = true;
    }
    return still;
  }

  /**
   * Stops retrying: waits for an attempt under way, makes a last one, and logs (and tells {@link
   * Lost}) the rows it could not write.
   */
  @Override
  public void close() {
    ScheduledExecutorService running;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      running = retries;
    }
    if (running != null) {
      running.shutdown(); // a scheduled attempt is cancelled; one under way finishes
      try {
        if (!running.awaitTermination(30, TimeUnit.SECONDS)) {
          log.warn("an attempt to write the kept usage rows still ran after 30 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (pending() > 0) {
      attempt();
    }
    List<LedgerEntry> left;
    String why;
    synchronized (this) {
      left = kept.stream().map(k -> k.entry).toList();
      kept.clear();
      why = lastFailure;
    }
    if (!left.isEmpty()) {
      giveUp(left, why);
    }
  }

  private void giveUp(List<LedgerEntry> rows, String why) {
    log.error(
        "the usage of {} turns could not be recorded before Legio stopped ({}); legio usage will"
            + " not count them",
        rows.size(),
        why);
    lost.rows(rows.size(), rows.get(0), why);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
