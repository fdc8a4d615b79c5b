package dev.legio.usage;

import static dev.legio.usage.LedgerRows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.FlakyUsageLedger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules of {@link OneByOneWalk}, on a ledger that fails as a test says. */
class OneByOneWalkTest {
  private final FlakyUsageLedger ledger = new FlakyUsageLedger();
  private final List<String> failures = new ArrayList<>();
  private final List<String> refused = new ArrayList<>();

  private final OneByOneWalk walk =
      new OneByOneWalk(
          ledger,
          new OneByOneWalk.Told() {
            @Override
            public void failed(RuntimeException failure) {
              failures.add(failure.getMessage());
            }

            @Override
            public void refused(LedgerEntry row, RuntimeException failure) {
              refused.add(row.owner());
            }
          });

  @Test
  void rowsTheDatabaseTakesAreAllWrittenInOrder() {
    List<LedgerEntry> rows = List.of(row("vorenus"), row("pullo"), row("legatus"));

    OneByOneWalk.Walked walked = walk.walk(rows, null);

    assertThat(walked).isEqualTo(new OneByOneWalk.Walked(3, List.of()));
    assertThat(ledger.rows).containsExactlyElementsOf(rows);
    assertThat(failures).isEmpty();
  }

  @Test
  void aRowRefusedForItsContentIsGivenUpAtOnceAndHoldsNoOtherBack() {
    ledger.refuses = e -> e.owner().equals("poison");
    LedgerEntry a = row("vorenus");
    LedgerEntry b = row("pullo");

    OneByOneWalk.Walked walked = walk.walk(List.of(a, row("poison"), b), null);

    assertThat(walked).isEqualTo(new OneByOneWalk.Walked(2, List.of()));
    assertThat(ledger.rows).containsExactly(a, b);
    assertThat(refused).containsExactly("poison");
    assertThat(failures).containsExactly("CHECK constraint failed: poison");
    assertThat(ledger.attempts).as("the refused row written once").isEqualTo(3);
  }

  @Test
  void theLastRowRefusedForItsContentIsGivenUpToo() {
    ledger.refuses = e -> e.owner().equals("poison");

    OneByOneWalk.Walked walked = walk.walk(List.of(row("poison")), null);

    assertThat(walked).isEqualTo(new OneByOneWalk.Walked(0, List.of()));
    assertThat(refused).containsExactly("poison");
  }

  @Test
  void aRowFailingAloneIsSetAsideAndWrittenAfterTheNextRowWhenTheFaultEnded() {
    LedgerEntry a = row("vorenus");
    LedgerEntry b = row("pullo");
    LedgerEntry c = row("legatus");
    ledger.failNext.set(1);

    OneByOneWalk.Walked walked = walk.walk(List.of(a, b, c), null);

    assertThat(walked).isEqualTo(new OneByOneWalk.Walked(3, List.of()));
    assertThat(ledger.rows).as("the one place the order changes").containsExactly(b, a, c);
    assertThat(refused).isEmpty();
    assertThat(failures).containsExactly("database is locked");
  }

  @Test
  void aRowFailingAloneAgainAfterTheNextRowWasWrittenIsGivenUp() {
    ledger.refuses = e -> e.owner().equals("poison");
    ledger.refusalsTold = false; // a refusal the ledger cannot tell from a fault
    LedgerEntry a = row("vorenus");
    LedgerEntry b = row("pullo");

    OneByOneWalk.Walked walked = walk.walk(List.of(row("poison"), a, b), null);

    assertThat(walked).isEqualTo(new OneByOneWalk.Walked(2, List.of()));
    assertThat(ledger.rows).containsExactly(a, b);
    assertThat(refused).containsExactly("poison");
    assertThat(failures).hasSize(2);
  }

  @Test
  void twoRowsInARowFailingEndTheWalkKeepingEveryRowNotWrittenInOrder() {
    LedgerEntry w = row("lucius");
    LedgerEntry a = row("vorenus");
    LedgerEntry b = row("pullo");
    LedgerEntry c = row("legatus");
    ledger.refuses = e -> e == a || e == b;
    ledger.refusalsTold = false; // failing as a fault does

    OneByOneWalk.Walked walked = walk.walk(List.of(w, a, b, c), null);

    assertThat(walked).isEqualTo(new OneByOneWalk.Walked(1, List.of(a, b, c)));
    assertThat(ledger.rows).containsExactly(w);
    assertThat(ledger.attempts).as("c not tried").isEqualTo(3);
    assertThat(refused).isEmpty();
  }

  @Test
  void theLastRowFailingAloneWithNoRowAfterItIsKept() {
    LedgerEntry a = row("vorenus");
    LedgerEntry b = row("pullo");
    ledger.refuses = e -> e == b;
    ledger.refusalsTold = false;

    OneByOneWalk.Walked walked = walk.walk(List.of(a, b), null);

    assertThat(walked).isEqualTo(new OneByOneWalk.Walked(1, List.of(b)));
    assertThat(refused).isEmpty();
  }

  @Test
  void theFirstRowsFailureGivenIsNotWrittenAgain() {
    LedgerEntry a = row("vorenus");

    OneByOneWalk.Walked kept =
        walk.walk(List.of(a), new UsageLedgerException("database is locked", null));
    OneByOneWalk.Walked givenUp =
        walk.walk(List.of(a), new UsageRowRefusedException("CHECK constraint failed", null));

    assertThat(kept).isEqualTo(new OneByOneWalk.Walked(0, List.of(a)));
    assertThat(givenUp).isEqualTo(new OneByOneWalk.Walked(0, List.of()));
    assertThat(ledger.attempts).isZero();
    assertThat(refused).containsExactly("vorenus");
  }
}
