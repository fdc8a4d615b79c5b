package dev.legio.usage;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the usage recorder's rows to the {@link UsageLedger}, and keeps the rows a failed write
 * left (the database locked by another program past its busy wait, PostgreSQL out of reach for a
 * moment) to write them again on a thread of its own, so that a short fault loses no turn from
 * {@code legio usage}, and the caller (the turn listener, which also writes transcripts after every
 * turn) waits on a failing database at most once per fault.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>While no row is kept, rows are written at once, on the caller's thread: a healthy
 *       database's write costs no thread switch, and has landed when {@link #write} returns.
 *       (Handing every row to a thread of its own, to bound the caller's wait at the onset of a
 *       fault too, was measured against this in {@code legio bench api}: docs/BENCHMARKS.md,
 *       sessions 32 and 33; its cost at p99 was within the machine's noise.) When that write fails,
 *       its rows are kept and a fault is presumed: until every kept row is written or given up, new
 *       rows are kept behind them without a write of their own, so the caller returns at once
 *       instead of waiting out the database's busy wait (SQLite's 10 s) turn after turn. A write
 *       the database refused for a row's content ({@link UsageRowRefusedException}) is no fault: a
 *       lone row is given up at once, and several are kept for the retry thread to write one by one
 *       at once (below).
 *   <li>Kept rows are written, in the order they were given, first {@link Backoff#first} after a
 *       failure, then twice as long after each attempt that fails too, at most {@link
 *       Backoff#longest} apart, for as long as the process runs. An attempt that writes every kept
 *       row goes on at once with the rows kept meanwhile; once none is left, rows are written as
 *       they come again.
 *   <li>An attempt writes every kept row in one transaction, all or none, so a kept row is written
 *       once; and a row whose write landed although it seemed to fail (a PostgreSQL commit whose
 *       answer the network lost) is not counted twice when written again: the ledger keeps one row
 *       per {@link LedgerEntry#turnId}.
 *   <li>When the database refused to begin that transaction ({@link UsageWriteNotBegunException}:
 *       its file held by another program past the busy wait, PostgreSQL out of reach), no row was
 *       even looked at: the attempt ends at once, every row kept, in order, for the next attempt.
 *       Written one by one, each would only wait the same again (on SQLite, an attempt used to wait
 *       three busy waits of 10 s on the log's writer instead of one).
 *   <li>When that transaction fails otherwise (a row's content refused, or any failure after it
 *       began), the rows are written one by one, in order, by {@link OneByOneWalk}'s rules (in its
 *       comment), so that a row the database refuses for itself never holds the others back: a row
 *       refused for its content is given up at once, a row failing alone twice, around a row
 *       written, is given up too, and two rows in a row failing end the walk, keeping the rest (as
 *       is a last row failing alone, with no row after it to test the database).
 *   <li>The kept rows have a limit, {@link Backoff#limit}: past it the oldest are dropped, told and
 *       counted in a warning ({@link KeptRows}' rules, in its comment).
 *   <li>{@link #close} waits for an attempt under way, then makes a last one; the rows it cannot
 *       write are logged as lost. A row given after that is written at once, on the caller's
 *       thread, and given up when that fails.
 *   <li>Every row given up (dropped, refused, lost at close) is told to the {@link Lost} listener,
 *       with why: none is dropped silently. The listener is told with the writer's monitor
 *       released, so a listener that calls the writer, or is slow, holds up no other caller.
 * </ul>
 *
 * Thread-safe.
 */
public final class RetryingUsageWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RetryingUsageWriter.class);

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

  private final UsageLedger ledger;
  private final Backoff backoff;
  private final Lost lost;
  private final OneByOneWalk oneByOne;

  // Guarded by this.
  private final KeptRows kept;
  private ScheduledExecutorService retries;
  private boolean scheduled;
  private boolean closed;
  private Duration wait;
  private int attemptingRows;
  private String lastFailure = "";
  private boolean inFault;

  /**
   * Serialises attempts: the retry thread's and the last one at close. A lock, not a monitor: the
   * retry thread is virtual (idle but for a fault, it adds no platform thread beside the turns'),
   * and on Java 21 a virtual thread that parks (the database writer's group commit) while holding a
   * monitor pins its carrier.
   */
  private final ReentrantLock attempting = new ReentrantLock();

  public RetryingUsageWriter(UsageLedger ledger, Backoff backoff, Lost lost) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.lost = Objects.requireNonNull(lost, "lost");
    this.wait = backoff.first();
    this.kept = new KeptRows(backoff.limit(), System::nanoTime);
    this.oneByOne =
        new OneByOneWalk(
            ledger,
            new OneByOneWalk.Told() {
              @Override
              public void failed(RuntimeException failure) {
                failedWith(failure);
              }

              @Override
              public void refused(LedgerEntry row, RuntimeException failure) {
                RetryingUsageWriter.this.refused(row, failure);
              }
            });
  }

  /**
   * Writes {@code entries} now, on this thread, or, while rows are kept after a failed write, keeps
   * them behind those without writing (see the class comment); when the write fails, keeps them to
   * write them again.
   */
  public void write(List<LedgerEntry> entries) {
    if (entries.isEmpty()) {
      return;
    }
    boolean keptBehind;
    Optional<KeptRows.Dropped> dropped = Optional.empty();
    synchronized (this) {
      keptBehind = !closed && (!kept.isEmpty() || attemptingRows > 0 || inFault);
      if (keptBehind) {
        dropped = kept.addAll(entries, lastFailure);
        if (attemptingRows == 0) {
          schedule(); // else the attempt under way takes them, or schedules the next for them
        }
      }
    }
    if (keptBehind) {
      tellDropped(dropped);
      return;
    }
    try {
      append(entries);
    } catch (RuntimeException e) {
      keep(entries, e);
    }
  }

  /**
   * Keeps the rows of a write on the caller's thread that failed ({@code failure}) for the retry
   * thread: at once when the database refused a row for what it holds (the rows are then written
   * one by one, and that row given up; a lone row is given up here), else after {@link
   * Backoff#first}, as a fault. After {@link #close}, gives them up.
   */
  private void keep(List<LedgerEntry> entries, RuntimeException failure) {
    failedWith(failure);
    boolean refusal = failure instanceof UsageRowRefusedException;
    if (refusal && entries.size() == 1) {
      refused(entries.get(0), failure); // it would fail again: given up at once
      return;
    }
    Optional<KeptRows.Dropped> dropped = Optional.empty();
    boolean closing;
    synchronized (this) {
      closing = closed;
      if (!closing) {
        dropped = kept.addAll(entries, lastFailure);
        if (!refusal) {
          faultGoesOn(entries);
        }
        if (attemptingRows == 0) {
          schedule();
        }
      }
    }
    if (closing) {
      giveUp(entries, "the usage writer was closing: " + failure.getMessage());
    } else {
      tellDropped(dropped);
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

  /**
   * Schedules the next attempt, unless one is: at once, or after {@link #wait} while a fault lasts.
   * Holds this.
   */
  private void schedule() {
    if (scheduled || closed) {
      return;
    }
    if (retries == null) {
      ScheduledThreadPoolExecutor executor =
          new ScheduledThreadPoolExecutor(
              1, Thread.ofVirtual().name("legio-usage-retry").factory());
      // close() makes the last attempt itself: a scheduled one need not wait for its time.
      executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
      retries = executor;
    }
    scheduled = true;
    retries.schedule(this::retry, inFault ? wait.toNanos() : 0, TimeUnit.NANOSECONDS);
  }

  /** The retry thread's attempt, and the next one scheduled while rows are kept. */
  private void retry() {
    boolean faultBefore;
    synchronized (this) {
      scheduled = false; // rows given from now on schedule the next attempt themselves
      faultBefore = inFault;
    }
    boolean wrote;
    try {
      wrote = attempt();
    } catch (RuntimeException e) {
      log.error("writing the kept usage rows failed unexpectedly", e);
      wrote = false;
    }
    synchronized (this) {
      // A fault that began with this attempt is tried again after the first wait.
      wait = wrote || !faultBefore ? backoff.first() : min(wait.multipliedBy(2), backoff.longest());
      if (!kept.isEmpty()) {
        schedule();
      }
    }
  }

  /**
   * Writes the kept rows by the rules, and then the rows kept meanwhile, until none is left or some
   * are kept again; true when none is left.
   */
  private boolean attempt() {
    attempting.lock();
    try {
      while (true) {
        List<LedgerEntry> rows;
        synchronized (this) {
          rows = kept.takeAll();
          attemptingRows = rows.size();
          if (rows.isEmpty()) {
            inFault = false;
            return true;
          }
        }
        List<LedgerEntry> back = attemptOnce(rows);
        Optional<KeptRows.Dropped> dropped;
        synchronized (this) {
          attemptingRows = 0;
          dropped = kept.putBack(back, lastFailure);
          if (!back.isEmpty()) {
            faultGoesOn(back);
          }
        }
        tellDropped(dropped);
        if (!back.isEmpty()) {
          return false;
        }
      }
    } finally {
      attempting.unlock();
    }
  }

  /**
   * Rows {@code back} are kept after a failed attempt: warns once when a fault begins. Holds this.
   */
  private void faultGoesOn(List<LedgerEntry> back) {
    if (inFault) {
      log.debug("writing {} kept usage rows failed again ({})", back.size(), lastFailure);
      return;
    }
    inFault = true;
    log.warn(
        "{}: recording the usage of {} failed ({}); kept, to be written again in {} ms, with"
            + " the usage of the turns that end meanwhile",
        back.get(0).owner(),
        back.size() == 1 ? "a turn" : back.size() + " turns",
        lastFailure,
        wait.toMillis());
  }

  private synchronized void failedWith(RuntimeException failure) {
    lastFailure = String.valueOf(failure.getMessage());
  }

  /** Whether rows written now were kept after a failed write (worth a line when they land). */
  private synchronized boolean recovering() {
    return inFault;
  }

  /**
   * Writes {@code rows} together, else, unless the database refused to begin that write, one by
   * one; returns the rows still to write, in order.
   */
  private List<LedgerEntry> attemptOnce(List<LedgerEntry> rows) {
    try {
      append(rows);
      logWritten(rows.size());
      return List.of();
    } catch (UsageWriteNotBegunException e) {
      failedWith(e);
      return rows; // no row was looked at: each alone would wait the same refusal again
    } catch (RuntimeException e) {
      failedWith(e);
      OneByOneWalk.Walked walked = oneByOne.walk(rows, rows.size() == 1 ? e : null);
      logWritten(walked.written());
      return walked.still();
    }
  }

  private void logWritten(int written) {
    if (written > 0 && recovering()) {
      log.info("the usage of {} turns kept after a failed write is now recorded", written);
    }
  }

  /**
   * Gives up {@code row}: the database refused it for what it holds, or alone twice, taking another
   * row in between.
   */
  private void refused(LedgerEntry row, RuntimeException failure) {
    String why = String.valueOf(failure.getMessage());
    log.error(
        "{}: the usage of a turn at {} was given up: the database refuses that row ({}), and would"
            + " refuse it again however often it was written; legio usage will not count it",
        row.owner(),
        row.at(),
        why);
    lost.rows(1, row, "the database refuses the row: " + why);
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
      left = kept.takeAll();
      why = lastFailure;
    }
    if (!left.isEmpty()) {
      giveUp(left, why);
    }
  }

  /**
   * Tells {@link Lost} of rows dropped past the limit. Called with this released: a listener that
   * calls the writer, or is slow, holds up no other caller.
   */
  private void tellDropped(Optional<KeptRows.Dropped> dropped) {
    if (dropped.isPresent()) {
      dropped.get().tell(lost);
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
