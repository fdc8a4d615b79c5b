package dev.legio.usage;

import java.util.ArrayList;
import java.util.List;

/**
 * The walk of {@link RetryingUsageWriter}'s kept rows one by one, in order, when writing them
 * together failed otherwise than by the database refusing to begin that transaction (a row's
 * content refused, or any failure after it began), so that a row the database refuses for itself
 * never holds the others back.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A row the ledger says the database refused for what it holds ({@link
 *       UsageRowRefusedException}: a constraint or trigger refusing it, a value its column cannot
 *       hold) is given up at once, logged once with why, even the last row or a row written alone:
 *       writing it again would fail again.
 *   <li>A row that fails alone otherwise is set aside while the next row is written; when that one
 *       is written, the database takes rows, and the row set aside is written again at once (after
 *       it, then: the one place the order of rows may change): it is given up as refused when it
 *       fails again, written when the fault had just ended.
 *   <li>Two rows in a row that fail so (the row set aside and the next one) mean the database is
 *       failing again: the walk ends, and every row not written is kept, in order, for the next
 *       attempt.
 *   <li>The last row, failing so alone with no row after it to test the database, is kept: the next
 *       attempt, with the rows given meanwhile, judges it.
 * </ul>
 *
 * Each failure and each row given up is told to its {@link Told} as the walk meets it. Holds no
 * lock of its own: the writer runs one walk at a time.
 */
final class OneByOneWalk {

  /** What a walk tells its writer as it goes. */
  interface Told {
    /** A write failed with {@code failure} (the last failure, for the writer's warnings). */
    void failed(RuntimeException failure);

    /** {@code row} is given up: the database refuses it ({@code failure}). */
    void refused(LedgerEntry row, RuntimeException failure);
  }

  /**
   * What a walk did.
   *
   * @param written how many rows it wrote
   * @param still the rows still to write, in order; empty when none is
   */
  record Walked(int written, List<LedgerEntry> still) {}

  private final UsageLedger ledger;
  private final Told told;

  OneByOneWalk(UsageLedger ledger, Told told) {
    this.ledger = ledger;
    this.told = told;
  }

  /**
   * Writes {@code rows} one at a time, by the rules.
   *
   * @param firstFailed the failure of {@code rows}' one row, written alone just now; null to write
   *     it
   */
  Walked walk(List<LedgerEntry> rows, RuntimeException firstFailed) {
    LedgerEntry setAside = null;
    int written = 0;
    for (int i = 0; i < rows.size(); i++) {
      LedgerEntry row = rows.get(i);
      RuntimeException failure = i == 0 ? firstFailed : null;
      if (failure == null) {
        try {
          ledger.append(row);
        } catch (RuntimeException e) {
          failure = e;
        }
      }
      if (failure instanceof UsageRowRefusedException refusal) {
        told.failed(refusal);
        told.refused(row, refusal); // it would fail again: given up at once, holding nothing back
        continue;
      }
      if (failure != null) {
        told.failed(failure);
        if (setAside != null) { // two in a row: the database is failing again
          List<LedgerEntry> still = new ArrayList<>(rows.size() - i + 1);
          still.add(setAside);
          still.addAll(rows.subList(i, rows.size()));
          return new Walked(written, still);
        }
        setAside = row;
        continue;
      }
      written++;
      if (setAside != null) { // the database took a row: try the one set aside once more
        try {
          ledger.append(setAside);
          written++;
        } catch (RuntimeException e) {
          told.failed(e);
          told.refused(setAside, e);
        }
        setAside = null;
      }
    }
    return new Walked(written, setAside == null ? List.of() : List.of(setAside));
  }
}
