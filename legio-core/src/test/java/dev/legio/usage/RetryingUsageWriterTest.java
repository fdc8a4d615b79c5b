package dev.legio.usage;

import static dev.legio.usage.LedgerRows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.FlakyUsageLedger;
import dev.legio.testing.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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

  /**
   * The listener is told of rows dropped past the limit once the writer's lock is released: a
   * listener that calls the writer, or is slow, holds up no other caller of the writer (it used to
   * be told holding it, so another caller waited for the listener, and a listener waiting for that
   * caller deadlocked).
   */
  @Test
  void theLostListenerRunsWithoutTheWritersLockSoAnotherCallerNeedNotWaitForIt() throws Exception {
    AtomicReference<RetryingUsageWriter> writer = new AtomicReference<>();
    AtomicBoolean firstTold = new AtomicBoolean(true);
    List<Boolean> otherCallerReturned = new CopyOnWriteArrayList<>();
    writer.set(
        new RetryingUsageWriter(
            ledger,
            new RetryingUsageWriter.Backoff(Duration.ofHours(1), Duration.ofHours(1), 1),
            (count, first, why) -> {
              lost.add(new LostRows(count, first.owner(), why));
              if (firstTold.getAndSet(false)) {
                CompletableFuture<Void> other =
                    CompletableFuture.runAsync(() -> writer.get().write(List.of(row("legatus"))));
                otherCallerReturned.add(returnsWithin(other, Duration.ofSeconds(2)));
              }
            }));
    writers.add(writer.get());
    ledger.down = true;

    writer.get().write(List.of(row("vorenus"))); // fails: kept
    writer.get().write(List.of(row("pullo"))); // kept past the limit: vorenus dropped

    assertThat(otherCallerReturned)
        .as("the listener's own call of the writer, from another thread, returned at once")
        .containsExactly(true);
    assertThat(lost).extracting(LostRows::firstOwner).containsExactly("vorenus", "pullo");
    assertThat(writer.get().pending()).isEqualTo(1);
  }

  private static boolean returnsWithin(CompletableFuture<Void> call, Duration wait) {
    try {
      call.get(wait.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (InterruptedException | ExecutionException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aLoneRowTheLedgerTellsRefusedIsGivenUpAtOnceLoggedOnceWithWhy() throws Exception {
    RetryingUsageWriter writer = writer(QUICK);
    ledger.refuses = e -> e.owner().equals("poison");
    try (LogCapture logs = new LogCapture(RetryingUsageWriter.class.getName())) {
      writer.write(List.of(row("poison"))); // no row after it, none before

      await(() -> writer.pending() == 0);
      assertThat(lost)
          .singleElement()
          .satisfies(l -> assertThat(l.firstOwner()).isEqualTo("poison"))
          .satisfies(
              l ->
                  assertThat(l.why())
                      .isEqualTo(
                          "the database refuses the row: CHECK constraint" + " failed: poison"));
      Thread.sleep(200); // no attempt of it again
      assertThat(ledger.attempts).isEqualTo(1);
      assertThat(logs.warningsAndErrors())
          .as("one line, in words, with why")
          .isEqualTo(
              "poison: the usage of a turn at 2026-11-28T10:00:00Z was given up: the database"
                  + " refuses that row (CHECK constraint failed: poison), and would refuse it again"
                  + " however often it was written; legio usage will not count it");
    }
    LedgerEntry a = row("vorenus");
    writer.write(List.of(a));
    assertThat(ledger.rows).containsExactly(a);
  }

  @Test
  void aWriteTheDatabaseTakesLandsOnTheCallersThreadBeforeWriteReturns() {
    RetryingUsageWriter writer = writer(QUICK);
    LedgerEntry a = row("vorenus");

    writer.write(List.of(a));

    assertThat(ledger.rows).as("written when write returns").containsExactly(a);
    assertThat(ledger.writers)
        .as("no hand-over to another thread while the database is healthy")
        .containsExactly(Thread.currentThread());
    assertThat(writer.pending()).isZero();
  }

  @Test
  void theCallerWaitsOnAHeldWriteOnceAndRowsGivenMeanwhileOrAfterItFailsAreKeptAtOnce()
      throws Exception {
    RetryingUsageWriter writer = writer(QUICK);
    // The first write waits, as one does on SQLite's busy wait while another program holds the
    // lock, then fails.
    ledger.holding = new CountDownLatch(1);
    try {
      LedgerEntry a = row("vorenus");
      CompletableFuture<Void> first = CompletableFuture.runAsync(() -> writer.write(List.of(a)));
      await(() -> ledger.held.get() == 1);
      ledger.down = true;
      ledger.holding.countDown();
      assertThat(first).succeedsWithin(Duration.ofSeconds(5));
      assertThat(writer.pending()).isEqualTo(1);

      ledger.holding = new CountDownLatch(1); // held again: the next caller must not wait on it
      LedgerEntry b = row("pullo");
      CompletableFuture<Void> next = CompletableFuture.runAsync(() -> writer.write(List.of(b)));
      assertThat(next).as("kept behind it at once").succeedsWithin(Duration.ofMillis(500));
      assertThat(writer.pending()).isEqualTo(2);

      ledger.down = false;
      ledger.holding.countDown();
      await(() -> writer.pending() == 0);
      assertThat(ledger.rows).containsExactly(a, b);
      assertThat(lost).isEmpty();
    } finally {
      ledger.holding.countDown();
    }
  }

  @Test
  void whileRowsAreKeptTheCallerDoesNotWaitOnTheDatabase() throws Exception {
    RetryingUsageWriter writer = writer(QUICK);
    ledger.down = true;
    LedgerEntry a = row("vorenus");
    writer.write(List.of(a)); // fails at once: kept
    // Now every write waits, as one does on SQLite's busy wait while another program holds the
    // lock.
    ledger.holding = new CountDownLatch(1);
    try {
      LedgerEntry b = row("pullo");
      LedgerEntry c = row("legatus");
      CompletableFuture<Void> caller =
          CompletableFuture.runAsync(
              () -> {
                writer.write(List.of(b));
                writer.write(List.of(c));
              });

      assertThat(caller)
          .as("the caller returns without a write of its own")
          .succeedsWithin(Duration.ofSeconds(2));
      assertThat(writer.pending()).isEqualTo(3);
      await(() -> ledger.held.get() == 1); // the retry thread waits instead

      ledger.down = false;
      ledger.holding.countDown();
      await(() -> writer.pending() == 0);
      assertThat(ledger.rows).containsExactly(a, b, c);
      assertThat(lost).isEmpty();
    } finally {
      ledger.holding.countDown();
    }
  }

  @Test
  void aRowTheDatabaseRefusesAmongRowsKeptDuringAFaultIsGivenUpWhileTheRestAreWritten()
      throws Exception {
    RetryingUsageWriter writer = writer(QUICK);
    ledger.down = true;
    ledger.refuses = e -> e.owner().equals("poison");
    LedgerEntry a = row("vorenus");
    LedgerEntry poison = row("poison");
    LedgerEntry b = row("pullo");
    writer.write(List.of(a));
    writer.write(List.of(poison));
    writer.write(List.of(b));
    Thread.sleep(200); // attempts fail, while the database is down: no row is given up
    assertThat(lost).isEmpty();
    assertThat(writer.pending()).isEqualTo(3);

    ledger.down = false;
    await(() -> writer.pending() == 0);

    assertThat(ledger.rows).containsExactly(a, b);
    assertThat(lost)
        .singleElement()
        .isEqualTo(
            new LostRows(
                1, "poison", "the database refuses the row: CHECK constraint failed: poison"));
  }

  @Test
  void aRefusedRowWithNoRowAfterItIsKeptUntilARowWrittenAfterItShowsTheDatabaseTakesRows()
      throws Exception {
    RetryingUsageWriter writer = writer(QUICK);
    ledger.refuses = e -> e.owner().equals("poison");
    ledger.refusalsTold = false; // a refusal the ledger cannot tell from a fault
    writer.write(List.of(row("poison")));
    Thread.sleep(200); // attempts of the one row: nothing tells a refusal from a fault
    assertThat(writer.pending()).isEqualTo(1);
    assertThat(lost).isEmpty();

    LedgerEntry a = row("vorenus");
    writer.write(List.of(a));
    await(() -> writer.pending() == 0);

    assertThat(ledger.rows).containsExactly(a);
    assertThat(lost).singleElement().satisfies(l -> assertThat(l.firstOwner()).isEqualTo("poison"));
  }

  @Test
  void rowsGivenWhileRowsAreKeptAreWrittenAfterThemInTheOrderGiven() throws Exception {
    RetryingUsageWriter writer =
        writer(new RetryingUsageWriter.Backoff(Duration.ofMillis(300), Duration.ofMillis(300), 10));
    ledger.down = true;
    LedgerEntry a = row("vorenus");
    writer.write(List.of(a));
    ledger.down = false; // back before the attempt: the next rows still queue behind a
    List<LedgerEntry> given = new ArrayList<>(List.of(a));
    for (int i = 0; i < 4; i++) {
      LedgerEntry next = row("agent" + i);
      given.add(next);
      writer.write(List.of(next));
    }
    assertThat(ledger.rows).isEmpty();

    await(() -> writer.pending() == 0);
    LedgerEntry after = row("pullo");
    writer.write(List.of(after)); // nothing kept: written at once
    given.add(after);

    assertThat(ledger.rows).containsExactlyElementsOf(given);
  }

  @Test
  void whileTheDatabaseIsDownAKeptRowIsNeverGivenUp() throws Exception {
    RetryingUsageWriter writer = writer(QUICK);
    ledger.down = true;
    List<LedgerEntry> rows = List.of(row("vorenus"), row("pullo"), row("legatus"));
    writer.write(List.of(rows.get(0)));
    writer.write(rows.subList(1, 3));
    Thread.sleep(300); // attempts at 20, 40, 80, 160, 240 ms..., each written one by one too
    assertThat(ledger.attempts).isGreaterThan(3);
    assertThat(writer.pending()).isEqualTo(3);
    assertThat(lost).isEmpty();

    ledger.down = false;
    await(() -> writer.pending() == 0);
    assertThat(ledger.rows).containsExactlyElementsOf(rows);
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
