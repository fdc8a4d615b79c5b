package dev.legio.usage;

import static dev.legio.usage.LedgerRows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.log.jdbc.ShortBusyWaitSqlite;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.usage.jdbc.JdbcUsageLedger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules of {@link RetryingUsageWriter} on a real SQLite file whose write lock another
 * connection holds ({@code BEGIN IMMEDIATE}), written through the log's real writer with a busy
 * wait of 200 ms instead of 10 s ({@link ShortBusyWaitSqlite}).
 */
class RetryingUsageWriterHeldSqliteTest {
  private static final RetryingUsageWriter.Backoff STEADY =
      new RetryingUsageWriter.Backoff(Duration.ofMillis(100), Duration.ofMillis(100), 100);

  @TempDir Path dir;
  private Path file;
  private final List<String> lost = new CopyOnWriteArrayList<>();

  /** One call of the ledger: which, how many rows, the transactions it began, how it ended. */
  record Call(String method, int rows, int begins, String outcome) {}

  /** The real ledger, recording each call the usage writer makes of it. */
  private static final class RecordingLedger implements UsageLedger {
    private final UsageLedger ledger;
    private final ShortBusyWaitSqlite db;
    final List<Call> calls = new CopyOnWriteArrayList<>();
    final AtomicInteger togetherStarted = new AtomicInteger();

    RecordingLedger(ShortBusyWaitSqlite db) {
      this.db = db;
      this.ledger = new JdbcUsageLedger(db.pool(), db.values(), db.sharedWriter());
    }

    @Override
    public void append(LedgerEntry entry) {
      record("append", 1, () -> ledger.append(entry));
    }

    @Override
    public void appendAll(List<LedgerEntry> entries) {
      togetherStarted.incrementAndGet();
      record("appendAll", entries.size(), () -> ledger.appendAll(entries));
    }

    private void record(String method, int rows, Runnable write) {
      int before = db.begins();
      try {
        write.run();
        calls.add(new Call(method, rows, db.begins() - before, "written"));
      } catch (UsageWriteNotBegunException e) {
        calls.add(new Call(method, rows, db.begins() - before, "not begun"));
        throw e;
      } catch (UsageRowRefusedException e) {
        calls.add(new Call(method, rows, db.begins() - before, "refused"));
        throw e;
      } catch (RuntimeException e) {
        calls.add(new Call(method, rows, db.begins() - before, "failed: " + e));
        throw e;
      }
    }

    @Override
    public UsageReport report(Instant since, Grouping by) {
      return ledger.report(since, by);
    }

    @Override
    public List<LedgerEntry> entries(Instant since, int limit) {
      return ledger.entries(since, limit);
    }

    @Override
    public List<KeySessionTotal> sessionsOfKey(String sessionKey) {
      return ledger.sessionsOfKey(sessionKey);
    }

    @Override
    public int deleteBefore(Instant cutoff) {
      return ledger.deleteBefore(cutoff);
    }
  }

  @BeforeEach
  void migrate() {
    file = dir.resolve("praetorium.db");
    LegioStore.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                file, 1 << 20, false, 2, new MutableClock(LedgerRows.AT)))
        .close();
  }

  private Connection otherProgram() throws Exception {
    return DriverManager.getConnection("jdbc:sqlite:" + file);
  }

  private RetryingUsageWriter writer(UsageLedger ledger) {
    return new RetryingUsageWriter(
        ledger, STEADY, (count, first, why) -> lost.add(count + " " + first.owner() + ": " + why));
  }

  /**
   * While another program holds the file, each attempt at the kept rows waits one busy wait, for
   * their shared transaction, and keeps them all: it used to write them one by one after it too,
   * waiting two busy waits more (three in all, 30 s on the log's writer with SQLite's 10 s).
   */
  @Test
  void anAttemptTheDatabaseRefusesToBeginWaitsOneBusyWaitAndKeepsEveryRow() throws Exception {
    LedgerEntry a = row("vorenus");
    LedgerEntry b = row("pullo");
    LedgerEntry c = row("legatus");
    try (ShortBusyWaitSqlite db = new ShortBusyWaitSqlite(file, Duration.ofMillis(200));
        Connection other = otherProgram();
        Statement holder = other.createStatement()) {
      RecordingLedger ledger = new RecordingLedger(db);
      try (RetryingUsageWriter writer = writer(ledger)) {
        holder.execute("BEGIN IMMEDIATE");
        writer.write(List.of(a)); // fails on the caller's thread: kept
        writer.write(List.of(b)); // kept behind it without a write
        writer.write(List.of(c));
        await(() -> ledger.togetherStarted.get() >= 3); // two attempts ended, a third began
        holder.execute("ROLLBACK");
        await(() -> writer.pending() == 0);
      }

      List<Call> calls = ledger.calls;
      assertThat(calls.getFirst()).isEqualTo(new Call("append", 1, 1, "not begun"));
      assertThat(calls.getLast()).isEqualTo(new Call("appendAll", 3, 1, "written"));
      assertThat(calls.subList(1, calls.size() - 1))
          .as("every attempt while the file was held: one begin, refused, and no row alone")
          .hasSizeGreaterThanOrEqualTo(2)
          .allSatisfy(call -> assertThat(call).isEqualTo(new Call("appendAll", 3, 1, "not begun")));
      assertThat(db.begins()).as("one begin per call, none more").isEqualTo(calls.size());
      assertThat(ledger.entries(Instant.EPOCH, 10)).containsExactly(a, b, c);
    }
    assertThat(lost).isEmpty();
  }

  /**
   * A row the database refuses for its content (a trigger refusing it), kept with others during a
   * fault, still fails their shared transaction once the file is free: the rows are written one by
   * one, and that row alone is given up.
   */
  @Test
  void aRowTheDatabaseRefusesAmongKeptRowsIsGivenUpAloneOnceTheFileIsFree() throws Exception {
    LedgerEntry a = row("vorenus");
    LedgerEntry poison = row("poison");
    LedgerEntry b = row("pullo");
    try (ShortBusyWaitSqlite db = new ShortBusyWaitSqlite(file, Duration.ofMillis(200));
        Connection other = otherProgram();
        Statement holder = other.createStatement()) {
      holder.execute(
          "CREATE TRIGGER refuse_poison BEFORE INSERT ON usage_ledger WHEN NEW.owner = 'poison'"
              + " BEGIN SELECT RAISE(ABORT, 'refuse_poison: the test refuses this row'); END");
      RecordingLedger ledger = new RecordingLedger(db);
      try (RetryingUsageWriter writer = writer(ledger)) {
        holder.execute("BEGIN IMMEDIATE");
        writer.write(List.of(a));
        writer.write(List.of(poison));
        writer.write(List.of(b));
        await(() -> ledger.togetherStarted.get() >= 2);
        assertThat(writer.pending()).as("while the file is held, no row is given up").isEqualTo(3);
        holder.execute("ROLLBACK");
        await(() -> writer.pending() == 0);
      }

      assertThat(ledger.entries(Instant.EPOCH, 10)).containsExactly(a, b);
      assertThat(ledger.calls)
          .as("the shared transaction began and was refused; then each row alone")
          .endsWith(
              new Call("appendAll", 3, 1, "refused"),
              new Call("append", 1, 1, "written"),
              new Call("append", 1, 1, "refused"),
              new Call("append", 1, 1, "written"));
    }
    assertThat(lost)
        .singleElement()
        .satisfies(l -> assertThat(l).startsWith("1 poison: ").contains("refuse_poison"));
  }

  private static void await(BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 30 s");
      }
      Thread.sleep(5);
    }
  }
}
