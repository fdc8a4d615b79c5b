package dev.legio.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.pricing.Tokens;
import dev.legio.testing.FlakyUsageLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The rules of {@link RetryingUsageWriter}, on a ledger that fails as a test says. */
class RetryingUsageWriterTest {
  private static final RetryingUsageWriter.Backoff QUICK =
      new RetryingUsageWriter.Backoff(Duration.ofMillis(20), Duration.ofMillis(80), 100);

  record LostRows(int count, String firstOwner, String why) {}

  private final FlakyUsageLedger ledger = new FlakyUsageLedger();
  private final List<LostRows> lost = new CopyOnWriteArrayList<>();
  private final List<RetryingUsageWriter> writers = new ArrayList<>();

  private RetryingUsageWriter writer(RetryingUsageWriter.Backoff backoff) {
    RetryingUsageWriter w =
        new RetryingUsageWriter(
            ledger,
            backoff,
            (count, first, why) -> lost.add(new LostRows(count, first.owner(), why)));
    writers.add(w);
    return w;
  }

  @AfterEach
  void close() {
    writers.forEach(RetryingUsageWriter::close);
  }

  private static LedgerEntry row(String owner) {
    return new LedgerEntry(
        Instant.parse("2026-11-28T10:00:00Z"),
        UUID.randomUUID(),
        owner,
        null,
        "offline",
        null,
        new Tokens(10, 5, 0, 0),
        TurnCost.choose("offline", null, null),
        Duration.ofMillis(5),
        TurnOutcome.OK);
  }

  private static void await(BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s");
      }
      Thread.sleep(5);
    }
  }

  @Test
  void rowsAFailedWriteLeftAreWrittenOnceWhenTheLedgerWorksAgainWithoutWaitingForIt()
      throws Exception {
    RetryingUsageWriter writer = writer(QUICK);
    ledger.down = true;
    LedgerEntry a = row("vorenus");
    LedgerEntry b = row("pullo");

    long start = System.nanoTime();
    writer.write(List.of(a));
    writer.write(List.of(b));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
    assertThat(writer.pending()).isEqualTo(2);
    Thread.sleep(200); // several attempts, all failing
    assertThat(ledger.rows).isEmpty();
    assertThat(writer.pending()).isEqualTo(2);

    ledger.down = false;
    await(() -> writer.pending() == 0);

    assertThat(ledger.rows).containsExactly(a, b);
    Thread.sleep(200);
    assertThat(ledger.rows).containsExactly(a, b); // once
    assertThat(lost).isEmpty();
  }

  @Test
  void pastTheLimitTheOldestKeptRowsAreDroppedAndCounted() throws Exception {
    RetryingUsageWriter writer =
        writer(new RetryingUsageWriter.Backoff(Duration.ofMillis(300), Duration.ofMillis(300), 3));
    ledger.down = true;
    List<LedgerEntry> rows = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      rows.add(row("agent" + i));
      writer.write(List.of(rows.get(i)));
    }
    assertThat(writer.pending()).isEqualTo(3);
    assertThat(lost).extracting(LostRows::count).containsExactly(1, 1);
    assertThat(lost).extracting(LostRows::firstOwner).containsExactly("agent0", "agent1");
    assertThat(lost.get(0).why()).contains("more than 3 turns waited", "database is locked");

    ledger.down = false;
    await(() -> writer.pending() == 0);
    assertThat(ledger.rows).containsExactlyElementsOf(rows.subList(2, 5));
  }

  @Test
  void aRowTheDatabaseRefusesForItselfIsGivenUpAndHoldsNoOtherBack() throws Exception {
    RetryingUsageWriter writer = writer(QUICK);
    ledger.refuses = e -> e.owner().equals("poison");
    LedgerEntry a = row("vorenus");
    LedgerEntry poison = row("poison");
    LedgerEntry b = row("pullo");
    writer.write(List.of(a, poison, b)); // refused together, kept
    assertThat(writer.pending()).isEqualTo(3);

    // The database takes other rows: the kept ones are written one by one; the refused one is
    // kept once, then given up when it is refused again after other rows were taken.
    LedgerEntry c = row("legatus");
    writer.write(List.of(c));
    await(() -> ledger.rows.contains(b));
    assertThat(ledger.rows).containsExactly(c, a, b);
    writer.write(List.of(row("legatus")));
    await(() -> writer.pending() == 0);

    assertThat(ledger.rows).doesNotContain(poison).hasSize(4);
    assertThat(lost).singleElement().satisfies(l -> assertThat(l.firstOwner()).isEqualTo("poison"));
    assertThat(lost.get(0).why()).startsWith("the database refuses the row: CHECK constraint");
  }

  @Test
  void whileTheDatabaseIsDownAKeptRowIsNeverGivenUp() throws Exception {
    RetryingUsageWriter writer = writer(QUICK);
    ledger.down = true;
    writer.write(List.of(row("vorenus")));
    Thread.sleep(300); // attempts at 20, 40, 80, 160, 240 ms...
    assertThat(ledger.attempts).isGreaterThan(3);
    assertThat(writer.pending()).isEqualTo(1);
    assertThat(lost).isEmpty();
  }

  @Test
  void closeWritesWhatIsKeptOnceMoreAndCountsWhatItCannot() {
    RetryingUsageWriter waiting =
        writer(new RetryingUsageWriter.Backoff(Duration.ofHours(1), Duration.ofHours(1), 100));
    ledger.down = true;
    LedgerEntry a = row("vorenus");
    waiting.write(List.of(a));
    ledger.down = false;

    waiting.close(); // does not wait an hour for its next attempt

    assertThat(ledger.rows).containsExactly(a);
    assertThat(lost).isEmpty();

    RetryingUsageWriter failing =
        writer(new RetryingUsageWriter.Backoff(Duration.ofHours(1), Duration.ofHours(1), 100));
    ledger.down = true;
    failing.write(List.of(row("pullo"), row("pullo")));
    failing.close();
    assertThat(lost).singleElement().isEqualTo(new LostRows(2, "pullo", "database is locked"));
  }
}
