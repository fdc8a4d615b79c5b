package dev.legio.testing;

import dev.legio.usage.Grouping;
import dev.legio.usage.KeySessionTotal;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageLedgerException;
import dev.legio.usage.UsageReport;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A usage ledger in memory whose writes fail while it is {@link #down} (as a locked or unreachable
 * database's do), or for the rows it {@link #refuses}; a write of several rows lands all or none.
 */
public final class FlakyUsageLedger implements UsageLedger {
  public final List<LedgerEntry> rows = new CopyOnWriteArrayList<>();
  public volatile boolean down;
  public volatile Predicate<LedgerEntry> refuses = e -> false;
  public volatile int attempts;

  @Override
  public void append(LedgerEntry entry) {
    appendAll(List.of(entry));
  }

  @Override
  public synchronized void appendAll(List<LedgerEntry> entries) {
    attempts++;
    if (down) {
      throw new UsageLedgerException("database is locked", null);
    }
    for (LedgerEntry e : entries) {
      if (refuses.test(e)) {
        throw new UsageLedgerException("CHECK constraint failed: " + e.owner(), null);
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
