package dev.legio.usage;

import java.time.Instant;
import java.util.List;

/**
 * Every turn of every session (agents, channels, tasks), one row each, kept in Legio's store.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Append-only: rows are never changed; only {@link #deleteBefore} removes them, oldest first
 *       (the daily cleanup, with {@link UsageRetention}).
 *   <li>One row per turn: a row whose {@link LedgerEntry#turnId} the ledger holds already is not
 *       written again (a retry of a write that landed although it seemed to fail).
 *   <li>A report's total is the sum of its rows, and its rows the sums of the turns in them: no
 *       turn is counted twice or left out.
 *   <li>A turn's unknown cost adds nothing to a sum; it is counted in {@link
 *       UsageTotal#unknownCostTurns()} instead, so a total is never shown as complete when it is
 *       not.
 * </ul>
 */
public interface UsageLedger {

  /** Records one turn. */
  void append(LedgerEntry entry);

  /** Records turns in order, all of them or none (by default one {@link #append} each). */
  default void appendAll(List<LedgerEntry> entries) {
    entries.forEach(this::append);
  }

  /** The turns that ended at or after {@code since}, added up by {@code by}. */
  UsageReport report(Instant since, Grouping by);

  /** The turns that ended at or after {@code since}, oldest first, at most {@code limit}. */
  List<LedgerEntry> entries(Instant since, int limit);

  /**
   * The task sessions of {@code sessionKey} that have turns in the ledger, each with its totals,
   * oldest first.
   */
  List<KeySessionTotal> sessionsOfKey(String sessionKey);

  /** Deletes the turns that ended before {@code cutoff}; returns how many. */
  int deleteBefore(Instant cutoff);
}
