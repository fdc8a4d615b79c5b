package dev.legio.testing;

import dev.legio.usage.Grouping;
import dev.legio.usage.KeySessionTotal;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageLedgerException;
import dev.legio.usage.UsageReport;
import dev.legio.usage.UsageRowRefusedException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A usage ledger in memory whose writes fail while it is {@link #down} (as a locked or unreachable
 * database's do), the next {@link #failNext} of them, or for the rows it {@link #refuses}; a write
 * of several rows lands all or none. While {@link #holding} is set, a write waits until it is
 * counted down (as one waiting out SQLite's busy wait does), then goes on by those rules.
 */
public final class FlakyUsageLedger implements UsageLedger {
  public final List<LedgerEntry> rows = new CopyOnWriteArrayList<>();
  public volatile boolean down;
  public volatile Predicate<LedgerEntry> refuses = e -> false;

  /**
   * Whether a refusal is told as one ({@link UsageRowRefusedException}, as the database ledger
   * tells a constraint or trigger refusing a row); false: a failure like any other.
   */
  public volatile boolean refusalsTold = true;

  public volatile int attempts;
  public final AtomicInteger failNext = new AtomicInteger();
  public volatile CountDownLatch holding;

  /** Writes that began while {@link #holding} was set. */
  public final AtomicInteger held = new AtomicInteger();

  /** The thread of each write, in order. */
  public final List<Thread> writers = new CopyOnWriteArrayList<>();

  @Override
  public void append(LedgerEntry entry) {
    appendAll(List.of(entry));
  }

  @Override
  public void appendAll(List<LedgerEntry> entries) {
    writers.add(Thread.currentThread());
    CountDownLatch hold = holding;
    if (hold != null) {
      held.incrementAndGet();
      try {
        hold.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UsageLedgerException("interrupted while the database was locked", e);
      }
    }
    write(entries);
  }

  private synchronized void write(List<LedgerEntry> entries) {
    attempts++;
    if (down || failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new UsageLedgerException("database is locked", null);
    }
    for (LedgerEntry e : entries) {
      if (refuses.test(e)) {
        String why = "CHECK constraint failed: " + e.owner();
        throw refusalsTold
            ? new UsageRowRefusedException(why, null)
            : new UsageLedgerException(why, null);
      }
    }
    rows.addAll(entries);
  }

  @Override
  public UsageReport report(Instant since, Grouping by) {
    throw new UnsupportedOperationException();
  }

  @Override
  public List<LedgerEntry> entries(Instant since, int limit) {
    return List.copyOf(rows);
  }

  @Override
  public List<KeySessionTotal> sessionsOfKey(String sessionKey) {
    return List.of();
  }

  @Override
  public int deleteBefore(Instant cutoff) {
    return 0;
  }
}
