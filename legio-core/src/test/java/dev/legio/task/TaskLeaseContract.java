package dev.legio.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.BackendException;
import dev.legio.config.SessionSettings;
import dev.legio.pricing.PriceTable;
import dev.legio.session.HeldLeases;
import dev.legio.session.LeaseHolder;
import dev.legio.session.SessionStore;
import dev.legio.session.jdbc.JdbcSessionStore;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.TurnOutcome;
import dev.legio.usage.UsageRecorder;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session lease of task sessions between nodes, on a real store (SQLite and PostgreSQL by the
 * subclasses): two "nodes" are two task services on one database, each taking its leases through a
 * session store of its own whose heartbeat beats only when the test says ({@link
 * HeldLeases#renewAll}), on a clock the test moves. A node that pauses is one whose heartbeat does
 * not beat while the clock passes its lease.
 */
public abstract class TaskLeaseContract {
  static final String KEY = "ticket:4711";
  static final String AGENT = "copywriter";
  static final Duration LEASE = SessionSettings.DEFAULT_LEASE_TTL;

  @TempDir Path dir;
  protected final MutableClock clock = MutableClock.at("2026-11-20T10:00:00.123456Z");
  private Workspace workspace;
  private LegioStore store;
  private final List<TaskSessions> services = new ArrayList<>();
  final ScriptedBackend backend = ScriptedBackend.resuming(new ScriptedBackend.Conversations());

  /** Opens a store on the database under test. */
  protected abstract LegioStore openStore(Path dir, MutableClock clock);

  /** Runs after the store is closed (to drop a test schema, say). */
  protected void afterStoresClosed() {}

  @BeforeEach
  void setUp() throws Exception {
    workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path prompt = workspace.castra().resolve("centuriones/" + AGENT + "/prompt.md");
    Files.createDirectories(prompt.getParent());
    Files.writeString(prompt, "---\ndescription: Answers tickets.\n---\nYou answer tickets.\n");
    store = openStore(dir, clock);
  }

  @AfterEach
  void tearDown() {
    services.forEach(TaskSessions::close);
    backend.close();
    if (store != null) {
      store.close();
    }
    afterStoresClosed();
  }

  /** A node whose leases beat only by {@code heart.renewAll()}. */
  TaskSessions node(HeldLeases heart, SessionSettings settings) {
    return node(
        store.sessionsAs(new JdbcSessionStore.LeaseUpkeep(LeaseHolder.thisProcess(), heart, clock)),
        settings);
  }

  /** A node taking its leases through {@code leases}. */
  TaskSessions node(SessionStore leases, SessionSettings settings) {
    return node(leases, store.tasks(), settings);
  }

  /** A node taking its leases through {@code leases} and keeping its records in {@code records}. */
  TaskSessions node(SessionStore leases, TaskSessionStore records, SessionSettings settings) {
    TaskSessions tasks =
        new TaskSessions(
            new AgentDirectory(workspace.castra()),
            backend,
            null,
            records,
            leases,
            store.usage(),
            new UsageRecorder(store.usage(), PriceTable.withOverrides(Map.of())),
            settings,
            clock,
            store.conversations());
    services.add(tasks);
    return tasks;
  }

  LegioStore store() {
    return store;
  }

  @Test
  void aTaskTurnLongerThanTheLeaseKeepsItAndAnotherNodeWaits() {
    HeldLeases heartA = new HeldLeases(false);
    TaskSessions a = node(heartA, SessionSettings.defaults());
    TaskSessions b =
        node(
            new HeldLeases(false), SessionSettings.defaults().withLockWait(Duration.ofMillis(200)));
    AtomicReference<Throwable> meanwhile = new AtomicReference<>();
    backend.duringTurn =
        turn -> {
          if (turn.message().equals("a long task")) {
            // The turn runs past its lease; the heartbeat beats as it does every third of it.
            clock.advance(LEASE.dividedBy(3));
            heartA.renewAll();
            clock.advance(LEASE.dividedBy(3));
            heartA.renewAll();
            clock.advance(LEASE.dividedBy(3).plusSeconds(5));
            heartA.renewAll();
            try {
              b.run(KEY, AGENT, "a task on another node", "run-b");
            } catch (RuntimeException e) {
              meanwhile.set(e);
            }
          }
        };

    TaskResult done = a.run(KEY, AGENT, "a long task", "run-a");

    assertThat(meanwhile.get())
        .isInstanceOf(TaskBusyException.class)
        .hasMessageContaining("another Legio process is running a task of this session");
    assertThat(backend.turns)
        .extracting(ScriptedBackend.Turn::message)
        .containsExactly("a long task");
    assertThat(store.tasks().find(KEY, AGENT).orElseThrow().turns()).isEqualTo(1);
    // The long turn gave its lease up: the other node runs the session's next turn at once.
    TaskResult next = b.run(KEY, AGENT, "a task on another node", "run-b");
    assertThat(next.resumed()).isTrue();
    assertThat(next.sessionId()).isEqualTo(done.sessionId());
  }

  @Test
  void aTurnWhoseLeaseAnotherNodeTookStoresNothingAndSaysSo() {
    TaskSessions a = node(new HeldLeases(false), SessionSettings.defaults());
    TaskSessions b = node(new HeldLeases(false), SessionSettings.defaults());
    TaskResult first = a.run(KEY, AGENT, "one", "run-1");
    backend.duringTurn =
        turn -> {
          if (turn.message().equals("two")) {
            // Node a pauses (kill -STOP): no heartbeat while its lease runs out, and node b runs
            // two tasks of the session meanwhile.
            clock.advance(LEASE.plusSeconds(1));
            b.run(KEY, AGENT, "three", "run-3");
            b.run(KEY, AGENT, "four", "run-4");
          }
        };

    backend.answer = turn -> "the answer to " + turn.message();

    // The answer came before the lease was found lost: it was paid for, so it is given.
    assertThatThrownBy(() -> a.run(KEY, AGENT, "two", "run-2"))
        .isInstanceOfSatisfying(
            TaskLeaseLostException.class,
            e -> {
              assertThat(e.reply()).isEqualTo("the answer to two");
              assertThat(e.taskRunId()).isEqualTo("run-2");
              assertThat(e.getMessage())
                  .contains("the session of copywriter for key 'ticket:4711' was taken over")
                  .contains("paused or lost the database for longer than")
                  .contains("lease_ttl_seconds (30 s)")
                  .contains("Nothing of this turn was stored")
                  .contains("is given here (reply), but it is not in the session's history")
                  .contains("Use it rather than sending the task again")
                  .contains("the other node may have answered it too")
                  .doesNotContain("kept nowhere");
            });

    // Node b's record stands (one, three, four), not node a's turn over it.
    TaskSessionRecord kept = store.tasks().find(KEY, AGENT).orElseThrow();
    assertThat(kept.sessionId()).isEqualTo(first.sessionId());
    assertThat(kept.turns()).isEqualTo(3);
    // The paused turn's tokens were spent: the ledger has it, as lease_lost.
    List<LedgerEntry> rows = store.usage().entries(Instant.EPOCH, 100);
    assertThat(rows)
        .extracting(e -> e.task().taskRunId() + " " + e.outcome())
        .containsExactlyInAnyOrder(
            "run-1 " + TurnOutcome.OK,
            "run-3 " + TurnOutcome.OK,
            "run-4 " + TurnOutcome.OK,
            "run-2 " + TurnOutcome.LEASE_LOST);
    assertThat(rows)
        .filteredOn(e -> "run-2".equals(e.task().taskRunId()))
        .singleElement()
        .satisfies(e -> assertThat(e.tokens().input()).isPositive());
    // Node a's next task continues the session node b left.
    TaskResult later = a.run(KEY, AGENT, "five", "run-5");
    assertThat(later.resumed()).isTrue();
    assertThat(store.tasks().find(KEY, AGENT).orElseThrow().turns()).isEqualTo(4);
  }

  @Test
  void aTurnTheBackEndFailsAfterAnotherNodeTookItsLeaseIsToldAsTakenOver() {
    TaskSessions a = node(new HeldLeases(false), SessionSettings.defaults());
    TaskSessions b = node(new HeldLeases(false), SessionSettings.defaults());
    a.run(KEY, AGENT, "one", "run-1");
    backend.duringTurn =
        turn -> {
          if (turn.message().equals("two")) {
            clock.advance(LEASE.plusSeconds(1));
            b.run(KEY, AGENT, "three", "run-3");
            // What fails first is the conversation node b continued, not the record's write.
            throw new BackendException("the conversation was continued by another process");
          }
        };

    // No answer came: there is none to give, and the task is to be sent again unless it was.
    assertThatThrownBy(() -> a.run(KEY, AGENT, "two", "run-2"))
        .isInstanceOfSatisfying(TaskLeaseLostException.class, e -> assertThat(e.reply()).isNull())
        .hasMessageContaining("was taken over by another Legio node")
        .hasMessageContaining("Nothing of this turn was stored")
        .hasMessageContaining("unless the task was sent again meanwhile, send it again")
        .hasCauseInstanceOf(BackendException.class);
    assertThat(store.tasks().find(KEY, AGENT).orElseThrow().turns()).isEqualTo(2);
    assertThat(store.usage().entries(Instant.EPOCH, 100))
        .filteredOn(e -> "run-2".equals(e.task().taskRunId()))
        .extracting(LedgerEntry::outcome)
        .containsExactly(TurnOutcome.LEASE_LOST);
  }

  /** This node's leases, taken through the store's own session store (no heartbeat). */
  private SessionStore leasesOfANode() {
    return store.sessionsAs(
        new JdbcSessionStore.LeaseUpkeep(LeaseHolder.thisProcess(), new HeldLeases(false), clock));
  }

  /**
   * The task records of {@code store}, whose writes under a lease fail as a database out of reach
   * does once {@code failing} is set (the write never reaches the database).
   */
  private static TaskSessionStore savesFailWhen(TaskSessionStore real, AtomicBoolean failing) {
    return (TaskSessionStore)
        java.lang.reflect.Proxy.newProxyInstance(
            TaskSessionStore.class.getClassLoader(),
            new Class<?>[] {TaskSessionStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("saveWhileLeased") && failing.get()) {
                throw new TaskSessionStoreException(
                    "could not save the task session: the database is unreachable", null);
              }
              try {
                return method.invoke(real, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void aTurnWhoseWriteFailedAfterAnotherNodeTookItsLeaseIsToldAsTakenOverWithItsAnswer() {
    AtomicBoolean unreachable = new AtomicBoolean();
    TaskSessions a =
        node(
            leasesOfANode(), savesFailWhen(store.tasks(), unreachable), SessionSettings.defaults());
    TaskSessions b = node(new HeldLeases(false), SessionSettings.defaults());
    TaskResult first = a.run(KEY, AGENT, "one", "run-1");
    backend.answer = turn -> "the answer to " + turn.message();
    backend.duringTurn =
        turn -> {
          if (turn.message().equals("two")) {
            // Node a loses the database for longer than its lease: node b takes the session over
            // and runs a task of it, and node a's write of its answer then fails.
            clock.advance(LEASE.plusSeconds(1));
            b.run(KEY, AGENT, "three", "run-3");
            unreachable.set(true);
          }
        };

    // Told as taken over (another node may have run the task too), with the answer it paid for;
    // the write's failure is the cause.
    assertThatThrownBy(() -> a.run(KEY, AGENT, "two", "run-2"))
        .isInstanceOfSatisfying(
            TaskLeaseLostException.class,
            e -> {
              assertThat(e.reply()).isEqualTo("the answer to two");
              assertThat(e.taskRunId()).isEqualTo("run-2");
              assertThat(e.getMessage())
                  .contains("the session of copywriter for key 'ticket:4711' was taken over")
                  .contains("is given here (reply), but it is not in the session's history")
                  .contains("the other node may have answered it too");
            })
        .hasCauseInstanceOf(TaskSessionStoreException.class);

    // Node b's record stands (one, three); the lost turn is in the ledger as lease_lost, with its
    // tokens, not as a failure of the database.
    TaskSessionRecord kept = store.tasks().find(KEY, AGENT).orElseThrow();
    assertThat(kept.sessionId()).isEqualTo(first.sessionId());
    assertThat(kept.turns()).isEqualTo(2);
    assertThat(store.usage().entries(Instant.EPOCH, 100))
        .filteredOn(e -> "run-2".equals(e.task().taskRunId()))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.outcome()).isEqualTo(TurnOutcome.LEASE_LOST);
              assertThat(e.tokens().input()).isPositive();
            });
  }

  @Test
  void aTurnWhoseWriteFailedAndWhoseLeaseCannotBeCheckedIsToldAsNotStored() {
    // The database stays out of reach: the write fails, and so does the check of the lease after
    // it. What is known is a database failure, not a takeover.
    SessionStore real = leasesOfANode();
    AtomicBoolean unreachable = new AtomicBoolean();
    SessionStore checkFails =
        (SessionStore)
            java.lang.reflect.Proxy.newProxyInstance(
                SessionStore.class.getClassLoader(),
                new Class<?>[] {SessionStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("renewLease") && unreachable.get()) {
                    throw new dev.legio.session.SessionStoreException(
                        "renewing the lease on the session of '" + args[0] + "' failed");
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    TaskSessions a =
        node(checkFails, savesFailWhen(store.tasks(), unreachable), SessionSettings.defaults());
    backend.answer = turn -> "the answer to " + turn.message();
    backend.duringTurn = turn -> unreachable.set(true);

    assertThatThrownBy(() -> a.run(KEY, AGENT, "one", "run-1"))
        .isInstanceOfSatisfying(
            TaskNotStoredException.class,
            e -> {
              assertThat(e.reply()).isEqualTo("the answer to one");
              assertThat(e.getMessage()).contains("database failed");
              // The lease was asked about, and the asking failed too: kept with the write's
              // failure.
              assertThat(e.getCause()).isInstanceOf(TaskSessionStoreException.class);
              assertThat(e.getCause().getSuppressed())
                  .singleElement()
                  .satisfies(
                      checked ->
                          assertThat(checked)
                              .isInstanceOf(dev.legio.session.SessionStoreException.class)
                              .hasMessageContaining("renewing the lease"));
            });
    assertThat(store.usage().entries(Instant.EPOCH, 100))
        .singleElement()
        .satisfies(e -> assertThat(e.outcome()).isEqualTo(TurnOutcome.ERROR));
  }

  @Test
  void aLeaseReleaseThatFailsDoesNotHideHowTheTurnEnded() {
    // The database goes away between the turn and the release of its lease.
    SessionStore real =
        store.sessionsAs(
            new JdbcSessionStore.LeaseUpkeep(
                LeaseHolder.thisProcess(), new HeldLeases(false), clock));
    SessionStore releaseFails =
        (SessionStore)
            java.lang.reflect.Proxy.newProxyInstance(
                SessionStore.class.getClassLoader(),
                new Class<?>[] {SessionStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("releaseLease")) {
                    throw new dev.legio.session.SessionStoreException(
                        "releasing the lease on the session of '" + args[0] + "' failed");
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    TaskSessions a = node(releaseFails, SessionSettings.defaults());

    // A completed task keeps its answer: its record is stored, and the lease frees itself.
    TaskResult done = a.run(KEY, AGENT, "one", "run-1");
    assertThat(done.reply()).isNotBlank();
    assertThat(store.tasks().find(KEY, AGENT).orElseThrow().turns()).isEqualTo(1);

    // A failed task is told its own failure, with the release's failure inside it.
    backend.failing.add(AGENT);
    assertThatThrownBy(() -> a.run(KEY, AGENT, "two", "run-2"))
        .isInstanceOf(TaskFailedException.class)
        .hasMessageContaining("could not answer the task")
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .singleElement()
                    .satisfies(
                        released ->
                            assertThat(released)
                                .isInstanceOf(dev.legio.session.SessionStoreException.class)
                                .hasMessageContaining("releasing the lease")));

    // The lease left behind runs out as a dead node's does: another node then takes the session.
    TaskSessions b = node(new HeldLeases(false), SessionSettings.defaults());
    clock.advance(LEASE.plusSeconds(1));
    backend.failing.clear();
    assertThat(b.run(KEY, AGENT, "three", "run-3").resumed()).isTrue();
  }
}
