package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.config.SessionSettings;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.pricing.PriceTable;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.RetryingUsageWriter;
import dev.legio.usage.UsageRecorder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class SqliteTurnUsageTest extends TurnUsageContract {
  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            dir.resolve("castra/praetorium.db"), 1 << 20, false, 4, clock));
  }

  /** Another program holds the database's write lock (an open write transaction). */
  @Override
  AutoCloseable databaseFault() throws Exception {
    Connection other =
        DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("castra/praetorium.db"));
    try (Statement s = other.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
    }
    return () -> {
      try (Statement s = other.createStatement()) {
        s.execute("ROLLBACK");
      } finally {
        other.close();
      }
    };
  }

  /**
   * While another program holds the file's write lock, the turn listener waits out SQLite's busy
   * wait (10 s) once, for the first usage row, on its own thread (a healthy write has no hand-over
   * to another thread); the rows of the turns after it are kept behind it at once (they used to
   * wait 10 s each, and the transcripts written on the same thread with them), and all of them
   * land, once each, when the lock is released.
   */
  @Test
  void whileAnotherProgramHoldsTheLockTheListenerWaitsOnceAndTheUsageLandsWhenItIsReleased()
      throws Exception {
    UsageRecorder recorder =
        new UsageRecorder(
            store.usage(),
            PriceTable.builtIn(),
            new RetryingUsageWriter.Backoff(Duration.ofMillis(200), Duration.ofSeconds(1), 100));
    CountDownLatch turnsRan = new CountDownLatch(1);
    CountDownLatch firstHeld = new CountDownLatch(1);
    AtomicBoolean first = new AtomicBoolean(true);
    // Holds the listener at the first turn until the others ran (they need the lock themselves).
    TurnListener gate =
        turn -> {
          if (first.getAndSet(false)) {
            firstHeld.countDown();
            try {
              turnsRan.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    List<Duration> recorderCalls = new CopyOnWriteArrayList<>();
    TurnListener timedRecorder =
        new TurnListener() {
          @Override
          public void turnCompleted(CompletedTurn turn) {
            long start = System.nanoTime();
            recorder.turnCompleted(turn);
            recorderCalls.add(Duration.ofNanos(System.nanoTime() - start));
          }

          @Override
          public void turnsCompleted(List<CompletedTurn> turns) {
            long start = System.nanoTime();
            recorder.turnsCompleted(turns);
            recorderCalls.add(Duration.ofNanos(System.nanoTime() - start));
          }
        };
    List<String> told = new CopyOnWriteArrayList<>();
    SessionEngine held =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(dir.resolve("castra")))
            .backend(backend)
            .settings(SessionSettings.defaults())
            .clock(clock)
            .turnListener(TurnListener.inOrder(gate, timedRecorder, turn -> told.add(turn.owner())))
            .build();
    AutoCloseable fault = null;
    try {
      assertThat(held.handle("@vorenus one", DispatchListener.NONE).ok()).isTrue();
      // The listener holds the first turn alone before the others run: else, on a loaded
      // machine, it may take all four in one batch, and one call is all there is to time.
      assertThat(firstHeld.await(60, TimeUnit.SECONDS)).isTrue();
      for (String text : List.of("@pullo two", "@vorenus three", "@pullo four")) {
        assertThat(held.handle(text, DispatchListener.NONE).ok()).isTrue();
      }
      fault = databaseFault();
      turnsRan.countDown();

      awaitUpTo(Duration.ofSeconds(60), () -> told.size() == 4);
      assertThat(recorderCalls.getFirst())
          .as("the first row held the listener for one busy wait (10 s) at most")
          .isLessThan(Duration.ofSeconds(10 + 5));
      assertThat(recorderCalls.subList(1, recorderCalls.size()))
          .as("the rows after it were kept without waiting")
          .isNotEmpty()
          .allSatisfy(d -> assertThat(d).isLessThan(Duration.ofSeconds(2)));
      assertThat(recorder.pending()).isEqualTo(4);

      fault.close();
      fault = null;
      awaitUpTo(Duration.ofSeconds(60), () -> recorder.pending() == 0);
    } finally {
      if (fault != null) {
        fault.close();
      }
      held.close();
      recorder.close();
    }

    List<LedgerEntry> entries = store.usage().entries(Instant.EPOCH, 100);
    assertThat(entries)
        .extracting(LedgerEntry::owner)
        .containsExactly("vorenus", "pullo", "vorenus", "pullo");
    assertThat(entries).extracting(LedgerEntry::turnId).doesNotHaveDuplicates();
    assertThat(recorder.unrecorded()).isEmpty();
  }

  private static void awaitUpTo(Duration max, BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + max.toSeconds() + " s");
      }
      Thread.sleep(20);
    }
  }
}
