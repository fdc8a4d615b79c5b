package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.BackendException;
import dev.legio.backend.TurnTimeoutException;
import dev.legio.config.SessionSettings;
import dev.legio.pricing.PriceTable;
import dev.legio.pricing.Tokens;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.usage.Grouping;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.RetryingUsageWriter;
import dev.legio.usage.TurnOutcome;
import dev.legio.usage.UsageRecorder;
import dev.legio.usage.UsageReport;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every turn that reached its back-end lands in the usage ledger with its duration and outcome: the
 * engine, a {@link UsageRecorder} and a real store. Subclasses choose the store (SQLite,
 * PostgreSQL).
 */
abstract class TurnUsageContract {
  private static final Instant START = Instant.parse("2026-11-23T09:00:00Z");

  @TempDir Path dir;
  final MutableClock clock = new MutableClock(START);
  LegioStore store;
  SessionEngine engine;
  final ScriptedBackend backend = ScriptedBackend.forgetful();

  abstract LegioStore openStore(Path dir, MutableClock clock);

  /**
   * Starts a fault of the store's database that lasts until the result is closed: its writes fail,
   * after the wait Legio gives them (SQLite's busy time-out, PostgreSQL's connection time-out: 10
   * s). SQLite: another program holds its write lock; PostgreSQL: the server is out of reach.
   */
  abstract AutoCloseable databaseFault() throws Exception;

  @BeforeEach
  void setUp() throws Exception {
    WorkspaceInitializer.initialise(new Workspace(dir));
    store = openStore(dir, clock);
    backend.kind = "anthropic";
    engine =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(dir.resolve("castra")))
            .backend(backend)
            .settings(SessionSettings.defaults())
            .clock(clock)
            .turnListener(new UsageRecorder(store.usage(), PriceTable.builtIn()))
            .build();
  }

  @AfterEach
  void tearDown() {
    if (engine != null) {
      engine.close();
    }
    if (store != null) {
      store.close();
    }
  }

  /** The ledger, once the engine has told the recorder of every turn. */
  private List<LedgerEntry> ledger() {
    engine.close();
    return store.usage().entries(START.minusSeconds(60), 100);
  }

  @Test
  void aCompletedTurnIsRecordedOkWithTheDurationTheEngineMeasured() {
    backend.duringTurn =
        turn -> {
          try {
            Thread.sleep(40);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    assertThat(engine.handle("@vorenus report", DispatchListener.NONE).ok()).isTrue();

    LedgerEntry entry = ledger().getFirst();
    assertThat(entry.outcome()).isEqualTo(TurnOutcome.OK);
    assertThat(entry.duration()).isNotNull().isGreaterThanOrEqualTo(Duration.ofMillis(40));
    assertThat(entry.sessionId())
        .isEqualTo(store.sessions().find("vorenus").orElseThrow().sessionId());
    assertThat(entry.tokens()).isEqualTo(new Tokens(10, 5, 0, 0));
  }

  @Test
  void failedTurnsAreRecordedWithTheirOutcomeDurationAndTheTokensKnown() {
    // An error of the back-end: nothing known of its tokens.
    backend.failing.add("vorenus");
    assertThat(engine.handle("@vorenus one", DispatchListener.NONE).ok()).isFalse();
    backend.failing.clear();

    // A time-out.
    backend.duringTurn =
        turn -> {
          if (turn.message().endsWith("two")) {
            throw new TurnTimeoutException("no answer within 1 s (turn_timeout_seconds)");
          }
        };
    assertThat(engine.handle("@vorenus two", DispatchListener.NONE).ok()).isFalse();

    // The model answers, but meanwhile another process took the session's lease (this one's ran
    // out): the answer is not logged, its tokens were spent.
    backend.duringTurn =
        turn -> {
          if (turn.message().endsWith("three")) {
            clock.advance(Duration.ofMinutes(16));
            assertThat(
                    store
                        .sessions()
                        .tryLease(
                            "vorenus", "another-process", clock.instant(), Duration.ofMinutes(1)))
                .isTrue();
          }
        };
    assertThat(engine.handle("@vorenus three", DispatchListener.NONE).ok()).isFalse();

    List<LedgerEntry> entries = ledger();
    assertThat(entries)
        .extracting(LedgerEntry::outcome)
        .containsExactly(TurnOutcome.ERROR, TurnOutcome.TIMEOUT, TurnOutcome.LEASE_LOST);
    assertThat(entries).allSatisfy(e -> assertThat(e.duration()).isNotNull());
    assertThat(entries).extracting(LedgerEntry::owner).containsOnly("vorenus");
    assertThat(entries.get(0).tokens()).isEqualTo(Tokens.ZERO);
    assertThat(entries.get(1).tokens()).isEqualTo(Tokens.ZERO);
    assertThat(entries.get(2).tokens()).isEqualTo(new Tokens(10, 5, 0, 0));

    UsageReport report = store.usage().report(START.minusSeconds(60), Grouping.AGENT);
    assertThat(report.total().turns()).isEqualTo(3);
    assertThat(report.total().failedTurns()).isEqualTo(3);
    assertThat(report.total().tokens()).isEqualTo(new Tokens(10, 5, 0, 0));
  }

  @Test
  void aPausedTurnWhoseSessionAnotherNodeRanAndGaveBackEndsAsTheLostLeaseNotAnError() {
    // Found by a probe: this node pauses (SIGSTOP, a long GC) past the lease; another node takes
    // the session, runs its turn and gives the lease back; then this node's back-end fails, as an
    // HTTP back-end does when the stored conversation was continued by the other node. The lease
    // is free again by then, but it was lost: that, not an error of the agent, is what is told.
    backend.duringTurn =
        turn -> {
          clock.advance(Duration.ofMinutes(16));
          assertThat(
                  store
                      .sessions()
                      .tryLease("vorenus", "another-node", clock.instant(), Duration.ofMinutes(1)))
              .isTrue();
          store.sessions().releaseLease("vorenus", "another-node");
          throw new BackendException(
              "appending turn 0 to the conversation was refused: another process continued it");
        };

    Reply reply = engine.handle("@vorenus report", DispatchListener.NONE).replies().getFirst();

    assertThat(reply.failed()).isTrue();
    // The caller is not told to send it again blindly: the message is in the log, and the node
    // that took the session over may have answered it.
    assertThat(reply.text())
        .contains("another node took the session over meanwhile")
        .contains("Your message is logged, and the other node may have answered it already")
        .contains(
            "look at the history (legio history, GET /api/v1/history) before sending it again")
        .contains("the same Idempotency-Key");
    assertThat(store.messageLog().history(10))
        .extracting(dev.legio.log.Message::text)
        .containsExactly("@vorenus report");
    assertThat(engine.status())
        .filteredOn(s -> s.owner().equals("vorenus"))
        .extracting(SessionStatus::activity)
        .containsExactly("idle");
    assertThat(ledger()).extracting(LedgerEntry::outcome).containsExactly(TurnOutcome.LEASE_LOST);
  }

  @Test
  void aPausedTurnWhoseAnswerCameGivesItSayingItIsNotInTheHistory() {
    // This node pauses past the lease while the model answers, and another node takes the
    // session: the reply's commit is refused. The answer was paid for, so it is given, not dropped.
    backend.duringTurn =
        turn -> {
          clock.advance(Duration.ofMinutes(16));
          assertThat(
                  store
                      .sessions()
                      .tryLease("vorenus", "another-node", clock.instant(), Duration.ofMinutes(1)))
              .isTrue();
        };

    Reply reply = engine.handle("@vorenus report", DispatchListener.NONE).replies().getFirst();

    assertThat(reply.failed()).isTrue();
    assertThat(reply.text())
        .startsWith(FailedReplies.leaseLostAnswerText("vorenus") + "\n\n")
        .endsWith("vorenus answer 1");
    // Nothing of it is stored: the log holds the request alone; the ledger has its tokens.
    assertThat(store.messageLog().history(10))
        .extracting(dev.legio.log.Message::text)
        .containsExactly("@vorenus report");
    assertThat(ledger())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.outcome()).isEqualTo(TurnOutcome.LEASE_LOST);
              assertThat(e.tokens()).isEqualTo(new Tokens(10, 5, 0, 0));
            });
  }

  @Test
  void aTurnWhoseDatabaseFailsAfterTheAnswerGivesTheAnswerSayingItWasNotStored() throws Exception {
    // Found by a probe: PostgreSQL restarted under load, and the turns in flight were answered
    // "An error occurred during processing", which says neither what failed nor what to do. Then
    // "send it again", which pays for the answer twice: the answer that came is given instead.
    AtomicReference<AutoCloseable> fault = new AtomicReference<>();
    backend.duringTurn =
        turn -> {
          try {
            fault.set(databaseFault());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    Reply reply;
    try {
      reply = engine.handle("@vorenus report", DispatchListener.NONE).replies().getFirst();
    } finally {
      fault.get().close();
    }

    assertThat(reply.failed()).isTrue();
    assertThat(reply.messageId()).isNull();
    assertThat(reply.text())
        .isEqualTo(FailedReplies.unstoredText("vorenus") + "\n\nvorenus answer 1")
        .contains("database failed", "not in the history", "need not send the message again");
  }

  @Test
  void aTurnCompletedDuringAShortDatabaseFaultIsRecordedOnceTheDatabaseIsBack() throws Exception {
    UsageRecorder recorder =
        new UsageRecorder(
            store.usage(),
            PriceTable.builtIn(),
            new RetryingUsageWriter.Backoff(Duration.ofMillis(200), Duration.ofSeconds(1), 100));
    AtomicReference<AutoCloseable> fault = new AtomicReference<>();
    // Told first: the turn's own writes have landed; its usage row meets the fault.
    TurnListener faultAfterTheTurn =
        turn -> {
          try {
            fault.set(databaseFault());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    SessionEngine faulty =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(dir.resolve("castra")))
            .backend(backend)
            .settings(SessionSettings.defaults())
            .clock(clock)
            .turnListener(TurnListener.inOrder(faultAfterTheTurn, recorder))
            .build();
    try {
      assertThat(faulty.handle("@vorenus report", DispatchListener.NONE).ok()).isTrue();
      // The ledger's write waits Legio's 10 s for the database, fails, and its row is kept.
      awaitUpTo(Duration.ofSeconds(40), () -> recorder.pending() == 1);
      fault.getAndSet(null).close();
      awaitUpTo(Duration.ofSeconds(20), () -> recorder.pending() == 0);
    } finally {
      AutoCloseable still = fault.getAndSet(null);
      if (still != null) {
        still.close();
      }
      faulty.close();
      recorder.close();
    }

    List<LedgerEntry> entries = ledgerOnceReadable();
    assertThat(entries).singleElement().satisfies(e -> assertThat(e.owner()).isEqualTo("vorenus"));
    assertThat(entries.get(0).sessionId())
        .isEqualTo(store.sessions().find("vorenus").orElseThrow().sessionId());
    assertThat(recorder.unrecorded()).isEmpty();
  }

  /**
   * The ledger's entries, read again while a read fails: a pool connection the fault broke fails
   * its next use (PostgreSQL).
   */
  private List<LedgerEntry> ledgerOnceReadable() throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        return store.usage().entries(START.minusSeconds(60), 100);
      } catch (RuntimeException e) {
        if (attempt == 5) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }

  private static void awaitUpTo(Duration max, java.util.function.BooleanSupplier done)
      throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + max.toSeconds() + " s");
      }
      Thread.sleep(20);
    }
  }

  @Test
  void aTurnRefusedBeforeItReachedTheBackEndIsNotRecorded() {
    assertThat(
            store
                .sessions()
                .tryLease("vorenus", "another-process", clock.instant(), Duration.ofMinutes(15)))
        .isTrue();
    SessionEngine impatient =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(dir.resolve("castra")))
            .backend(backend)
            .settings(SessionSettings.defaults().withLockWait(Duration.ZERO))
            .clock(clock)
            .turnListener(new UsageRecorder(store.usage(), PriceTable.builtIn()))
            .build();
    try {
      assertThat(impatient.handle("@vorenus busy?", DispatchListener.NONE).ok()).isFalse();
    } finally {
      impatient.close();
    }
    assertThat(backend.turns).isEmpty();
    assertThat(ledger()).isEmpty();
  }
}
