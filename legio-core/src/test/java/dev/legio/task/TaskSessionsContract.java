package dev.legio.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionTools;
import dev.legio.backend.anthropic.AnthropicBackend;
import dev.legio.config.LegioConfig;
import dev.legio.config.SessionSettings;
import dev.legio.pricing.Tokens;
import dev.legio.store.LegioStore;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.MutableClock;
import dev.legio.testing.RecordingSleeper;
import dev.legio.testing.ScriptedBackend;
import dev.legio.usage.LedgerEntry;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules of {@link TaskSessions}, on a real store (SQLite and PostgreSQL by the subclasses) and,
 * where context matters, the Anthropic back-end against the loopback Messages API: what reaches the
 * model is what a key's session holds.
 */
public abstract class TaskSessionsContract {
  static final String KEY = "campaign:7f3c/α β";
  static final String OTHER_KEY = "campaign:9e1d";
  static final String AGENT = "copywriter";

  @TempDir Path dir;
  protected final MutableClock clock = MutableClock.at("2026-11-20T10:00:00.123456Z");
  private Workspace workspace;
  private LegioStore store;
  private FakeMessagesApi api;
  private final List<TaskSessions> services = new ArrayList<>();
  private final List<ModelBackend> backends = new ArrayList<>();
  private SessionSettings settings = SessionSettings.defaults();

  /** Opens a store on the database under test; called again to stand for a restart. */
  protected abstract LegioStore openStore(Path dir, MutableClock clock);

  /** Runs after the last store is closed (to drop a test schema, say). */
  protected void afterStoresClosed() {}

  @BeforeEach
  void setUp() throws Exception {
    workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path prompt = workspace.castra().resolve("centuriones/" + AGENT + "/prompt.md");
    Files.createDirectories(prompt.getParent());
    Files.writeString(
        prompt, "---\ndescription: Writes copy.\nmodel: claude-sonnet-4-5\n---\nYou write copy.\n");
    store = openStore(dir, clock);
    api = FakeMessagesApi.start();
  }

  @AfterEach
  void tearDown() {
    services.forEach(TaskSessions::close);
    backends.forEach(ModelBackend::close);
    if (store != null) {
      store.close();
    }
    if (api != null) {
      api.close();
    }
    afterStoresClosed();
  }

  private ModelBackend anthropic(LegioStore on) {
    ModelBackend backend =
        AnthropicBackend.create(
            LegioConfig.Backend.of("anthropic")
                .withBaseUrl(api.baseUrl().toString())
                .withApiKey("sk-ant-test"),
            LegioConfig.Context.defaults(),
            on.conversations(),
            SessionTools.NONE,
            clock,
            new RecordingSleeper());
    backends.add(backend);
    return backend;
  }

  private TaskSessions tasks(ModelBackend backend, LegioStore on) {
    TaskSessions tasks = TestTaskSessions.on(on, workspace.castra(), backend, settings, clock);
    services.add(tasks);
    return tasks;
  }

  private TaskSessions anthropicTasks() {
    return tasks(anthropic(store), store);
  }

  private List<FakeMessagesApi.Request> requests() {
    return api.requests().stream().filter(FakeMessagesApi.Request::isMessages).toList();
  }

  private FakeMessagesApi.Request lastRequest() {
    List<FakeMessagesApi.Request> all = requests();
    return all.get(all.size() - 1);
  }

  @Test
  void aMalformedKeyOrAnAgentThatIsNoCenturioHasNoHomeAndReachesNoStore() {
    TaskSessionStore real = store.tasks();
    List<String> asked = new CopyOnWriteArrayList<>();
    TaskSessionStore watched =
        (TaskSessionStore)
            java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {TaskSessionStore.class},
                (proxy, method, args) -> {
                  asked.add(method.getName());
                  try {
                    return method.invoke(real, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    TaskSessions tasks =
        TestTaskSessions.on(store, watched, workspace.castra(), anthropic(store), settings, clock);
    services.add(tasks);
    asked.clear();

    // A NUL reaching PostgreSQL fails the query ("invalid byte sequence"); none gets there.
    assertThat(tasks.conversationHome("a\u0000b", AGENT)).isEmpty();
    assertThat(tasks.conversationHome("x".repeat(SessionKey.MAX_LENGTH + 1), AGENT)).isEmpty();
    assertThat(tasks.conversationHome("", AGENT)).isEmpty();
    assertThat(tasks.conversationHome(null, AGENT)).isEmpty();
    assertThat(tasks.conversationHome(KEY, "no\u0000such")).isEmpty();
    assertThat(tasks.conversationHome(KEY, null)).isEmpty();
    assertThat(asked).isEmpty();

    // A good key of a centurio is looked up.
    assertThat(tasks.conversationHome(KEY, AGENT)).isEmpty();
    assertThat(asked).containsExactly("conversationHome");
  }

  // ------------------------------------------------------------------ context

  @Test
  void theSameKeyResumesItsSessionAndAnotherKeyDoesNotShareIt() {
    TaskSessions tasks = anthropicTasks();
    api.enqueue(Reply.text("Noted, Ada."), Reply.text("Ada."), Reply.text("Who?"));

    TaskResult first = tasks.run(KEY, AGENT, "My name is Ada.", "run-1");
    TaskResult second = tasks.run(KEY, AGENT, "What is my name?", "run-2");
    TaskResult other = tasks.run(OTHER_KEY, AGENT, "What is my name?", null);

    assertThat(first.resumed()).isFalse();
    assertThat(first.reply()).isEqualTo("Noted, Ada.");
    assertThat(first.taskRunId()).isEqualTo("run-1");
    assertThat(second.resumed()).isTrue();
    assertThat(second.sessionId()).isEqualTo(first.sessionId());
    assertThat(other.resumed()).isFalse();
    assertThat(other.sessionId()).isNotEqualTo(first.sessionId());
    List<FakeMessagesApi.Request> sent = requests();
    assertThat(sent).hasSize(3);
    assertThat(sent.get(1).messageTexts())
        .containsExactly("My name is Ada.", "Noted, Ada.", "What is my name?");
    assertThat(sent.get(2).messageTexts()).containsExactly("What is my name?");
    assertThat(sent.get(2).allText()).doesNotContain("Ada");
    // The agent's prompt, and nothing of the praetorium.
    assertThat(sent.get(0).systemText()).contains("You write copy.").doesNotContain("praetorium");
  }

  @Test
  void aRestartInBetweenStillResumes() {
    api.enqueue(Reply.text("Noted."), Reply.text("Ada."));
    TaskResult first = anthropicTasks().run(KEY, AGENT, "My name is Ada.", null);
    services.forEach(TaskSessions::close);
    services.clear();
    backends.forEach(ModelBackend::close);
    backends.clear();
    store.close();

    store = openStore(dir, clock);
    TaskResult again = anthropicTasks().run(KEY, AGENT, "What is my name?", null);

    assertThat(again.resumed()).isTrue();
    assertThat(again.sessionId()).isEqualTo(first.sessionId());
    assertThat(lastRequest().messageTexts())
        .containsExactly("My name is Ada.", "Noted.", "What is my name?");
  }

  @Test
  void idlePastTheSessionIdleTimeoutStillResumes() {
    TaskSessions tasks = anthropicTasks();
    api.enqueue(Reply.text("Noted."), Reply.text("Ada."));
    TaskResult first = tasks.run(KEY, AGENT, "My name is Ada.", null);

    clock.advance(settings.idleTimeout().plusDays(6));
    assertThat(tasks.closeIdle()).isEqualTo(1);
    TaskResult later = tasks.run(KEY, AGENT, "What is my name?", null);

    assertThat(later.resumed()).isTrue();
    assertThat(later.sessionId()).isEqualTo(first.sessionId());
    assertThat(lastRequest().messageTexts()).contains("My name is Ada.");
  }

  @Test
  void aSessionExpiresAfterItsTtlAndTheCleanupDeletesItsConversation() {
    TaskSessions tasks = anthropicTasks();
    api.enqueue(Reply.text("Noted."), Reply.text("Who?"), Reply.text("Hello."));
    TaskResult first = tasks.run(KEY, AGENT, "My name is Ada.", null);
    TaskSessionRecord kept = store.tasks().find(KEY, AGENT).orElseThrow();
    UUID conversation = UUID.fromString(kept.backendSessionId());
    assertThat(kept.expiresAt()).isEqualTo(kept.lastActiveAt().plus(settings.ttlFor("anthropic")));

    // One second before the TTL runs out the cleanup leaves it, and it still resumes.
    clock.advance(settings.ttlFor("anthropic").minusSeconds(1));
    assertThat(tasks.deleteExpired()).isZero();
    TaskResult late = tasks.run(KEY, AGENT, "What is my name?", null);
    assertThat(late.resumed()).isTrue();

    // Past the TTL after its last turn: deleted, with its stored conversation.
    clock.advance(settings.ttlFor("anthropic").plusSeconds(1));
    assertThat(tasks.deleteExpired()).isEqualTo(1);
    assertThat(store.tasks().find(KEY, AGENT)).isEmpty();
    assertThat(store.conversations().find(conversation)).isEmpty();
    TaskResult fresh = tasks.run(KEY, AGENT, "Hello.", null);
    assertThat(fresh.resumed()).isFalse();
    assertThat(fresh.sessionId()).isNotEqualTo(first.sessionId());
    assertThat(lastRequest().messageTexts()).containsExactly("Hello.");
  }

  @Test
  void theCleanupDeletesTheConversationsACompactedSessionContinues() {
    TaskSessions tasks = anthropicTasks();
    Instant now = clock.instant();
    dev.legio.backend.http.Conversation older =
        new dev.legio.backend.http.Conversation(
            UUID.randomUUID(),
            AGENT,
            "anthropic",
            "claude-sonnet-4-5",
            "p",
            null,
            null,
            now,
            List.of());
    dev.legio.backend.http.Conversation current =
        new dev.legio.backend.http.Conversation(
            UUID.randomUUID(),
            AGENT,
            "anthropic",
            "claude-sonnet-4-5",
            "p",
            "summary",
            older.id(),
            now,
            List.of());
    dev.legio.backend.http.Conversation unrelated =
        new dev.legio.backend.http.Conversation(
            UUID.randomUUID(),
            AGENT,
            "anthropic",
            "claude-sonnet-4-5",
            "p",
            null,
            null,
            now,
            List.of());
    store.conversations().create(older);
    store.conversations().create(current);
    store.conversations().create(unrelated);
    store
        .tasks()
        .save(
            new TaskSessionRecord(
                KEY,
                AGENT,
                UUID.randomUUID(),
                "anthropic",
                current.id().toString(),
                "0".repeat(64),
                null,
                0,
                0,
                1,
                now,
                now,
                now.plus(Duration.ofDays(1))));

    clock.advance(Duration.ofDays(1));
    assertThat(tasks.deleteExpired()).isEqualTo(1);

    assertThat(store.conversations().find(current.id())).isEmpty();
    assertThat(store.conversations().find(older.id())).isEmpty();
    assertThat(store.conversations().find(unrelated.id())).isPresent();
  }

  @Test
  void anExpiredSessionIsNotResumedEvenBeforeTheCleanupRuns() {
    TaskSessions tasks = anthropicTasks();
    api.enqueue(Reply.text("Noted."), Reply.text("Who?"));
    tasks.run(KEY, AGENT, "My name is Ada.", null);
    clock.advance(settings.ttlFor("anthropic").plusSeconds(1));

    TaskResult after = tasks.run(KEY, AGENT, "What is my name?", null);

    assertThat(after.resumed()).isFalse();
    assertThat(lastRequest().messageTexts()).containsExactly("What is my name?");
  }

  // ------------------------------------------------------------------ usage

  @Test
  void theKeysTotalsAreTheSumOfItsTurnsInTheLedger() {
    TaskSessions tasks = anthropicTasks();
    api.enqueue(
        Reply.text("a").withUsage(1_000, 200, 300, 40),
        Reply.text("b").withUsage(2_000, 100, 0, 0),
        Reply.text("c").withUsage(5, 5, 5, 5),
        Reply.text("d").withUsage(7, 7, 0, 0));
    List<TaskResult> mine =
        List.of(
            tasks.run(KEY, AGENT, "one", "run-1"),
            tasks.run(KEY, AGENT, "two", "run-2"),
            tasks.run(KEY, AGENT, "three", "run-3"));
    tasks.run(OTHER_KEY, AGENT, "elsewhere", "run-x");

    List<TaskSessionSummary> sessions = tasks.sessionsOf(KEY);

    assertThat(sessions).hasSize(1);
    TaskSessionSummary s = sessions.get(0);
    assertThat(s.agent()).isEqualTo(AGENT);
    assertThat(s.resumable()).isTrue();
    assertThat(s.totals().total().turns()).isEqualTo(3);
    Tokens sum = mine.stream().map(r -> r.usage().tokens()).reduce(Tokens.ZERO, Tokens::plus);
    assertThat(s.totals().total().tokens()).isEqualTo(sum);
    assertThat(sum).isEqualTo(new Tokens(3_005, 305, 305, 45));
    BigDecimal cost =
        mine.stream().map(r -> r.usage().costUsd()).reduce(BigDecimal.ZERO, BigDecimal::add);
    assertThat(cost).isPositive();
    assertThat(s.totals().total().costUsd()).isEqualByComparingTo(cost);
    // Each turn is a ledger row with the key, the agent and its task run.
    List<LedgerEntry> rows = store.usage().entries(Instant.EPOCH, 100);
    assertThat(rows)
        .extracting(e -> e.task().sessionKey() + " " + e.task().taskRunId())
        .containsExactly(KEY + " run-1", KEY + " run-2", KEY + " run-3", OTHER_KEY + " run-x");
    assertThat(rows).allSatisfy(e -> assertThat(e.task().agent()).isEqualTo(AGENT));
  }

  @Test
  void aTurnTheBackEndFailsIsInTheLedgerWithItsOutcomeAndTaskRun() {
    TaskSessions tasks = anthropicTasks();
    api.enqueue(Reply.error(401, "authentication_error", "invalid x-api-key"));

    assertThatThrownBy(() -> tasks.run(KEY, AGENT, "one", "run-1"))
        .isInstanceOf(TaskFailedException.class);

    List<LedgerEntry> rows = store.usage().entries(Instant.EPOCH, 100);
    assertThat(rows).hasSize(1);
    LedgerEntry failed = rows.get(0);
    assertThat(failed.outcome()).isEqualTo(dev.legio.usage.TurnOutcome.ERROR);
    assertThat(failed.task().sessionKey()).isEqualTo(KEY);
    assertThat(failed.task().agent()).isEqualTo(AGENT);
    assertThat(failed.task().taskRunId()).isEqualTo("run-1");
    assertThat(failed.tokens()).isEqualTo(Tokens.ZERO);
    assertThat(failed.duration()).isNotNull();
    // Nothing else was stored: the next task starts a session of its own.
    assertThat(tasks.sessionsOf(KEY)).allSatisfy(s -> assertThat(s.resumable()).isFalse());
    // The key's totals count it as a failed turn.
    assertThat(tasks.sessionsOf(KEY))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.totals().total().turns()).isEqualTo(1);
              assertThat(s.totals().total().failedTurns()).isEqualTo(1);
            });
  }

  @Test
  void anAnswerWhoseSessionCannotBeStoredIsGivenWithTheErrorAndItsTokensAreInTheLedger() {
    TaskSessionStore real = store.tasks();
    TaskSessionStore savesFail =
        (TaskSessionStore)
            java.lang.reflect.Proxy.newProxyInstance(
                TaskSessionStore.class.getClassLoader(),
                new Class<?>[] {TaskSessionStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("saveWhileLeased")) {
                    throw new TaskSessionStoreException(
                        "could not save the task session: the database is unreachable", null);
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    TaskSessions tasks =
        TestTaskSessions.on(
            store, savesFail, workspace.castra(), anthropic(store), settings, clock);
    services.add(tasks);
    api.enqueue(Reply.text("The copy you paid for."));

    assertThatThrownBy(() -> tasks.run(KEY, AGENT, "Write the copy.", "run-1"))
        .isInstanceOfSatisfying(
            TaskNotStoredException.class,
            e -> {
              assertThat(e.reply()).isEqualTo("The copy you paid for.");
              assertThat(e.taskRunId()).isEqualTo("run-1");
              assertThat(e.getMessage())
                  .contains("database failed")
                  .contains("the database is unreachable")
                  .contains("use it rather than sending the task again");
            });

    // The turn is in the ledger as failed, with the tokens its answer spent.
    List<LedgerEntry> rows = store.usage().entries(Instant.EPOCH, 100);
    assertThat(rows)
        .singleElement()
        .satisfies(
            row -> {
              assertThat(row.outcome()).isEqualTo(dev.legio.usage.TurnOutcome.ERROR);
              assertThat(row.task().taskRunId()).isEqualTo("run-1");
              assertThat(row.tokens().output()).isPositive();
            });
    // Nothing of the session was stored, and the lease is free for the next task.
    assertThat(real.find(KEY, AGENT)).isEmpty();
    api.enqueue(Reply.text("Again."));
    assertThat(anthropicTasks().run(KEY, AGENT, "Once more.", "run-2").reply()).isEqualTo("Again.");
  }

  // ------------------------------------------------------------------ refusals

  @Test
  void aBadKeyAnUnknownAgentAndAnEmptyTextAreRefusedAndNothingRuns() {
    TaskSessions tasks = anthropicTasks();
    assertThatThrownBy(() -> tasks.run("", AGENT, "x", null))
        .isInstanceOf(TaskRefusedException.class)
        .hasMessageContaining("session_key is missing");
    assertThatThrownBy(() -> tasks.run("x".repeat(201), AGENT, "x", null))
        .hasMessageContaining("201 characters long; at most 200");
    assertThatThrownBy(() -> tasks.run("a\nb", AGENT, "x", null))
        .hasMessageContaining("not printable (U+000A at position 2)");
    assertThatThrownBy(() -> tasks.run(KEY, "nobody", "x", null))
        .isInstanceOf(TaskRefusedException.class)
        .hasMessageContaining("no agent named 'nobody'")
        .hasMessageContaining("Known agents: " + AGENT)
        .satisfies(e -> assertThat(((TaskRefusedException) e).knownAgents()).contains(AGENT));
    assertThatThrownBy(() -> tasks.run(KEY, AGENT, " ", null))
        .hasMessageContaining("text is empty");
    assertThat(requests()).isEmpty();
    assertThat(store.tasks().forKey(KEY)).isEmpty();
  }

  @Test
  void aTextOrTaskRunIdNoStoreCanKeepIsRefusedBeforeTheModelIsCalled() {
    TaskSessions tasks = anthropicTasks();
    assertThatThrownBy(() -> tasks.run(KEY, AGENT, "h\u0000i", null))
        .isInstanceOf(TaskRefusedException.class)
        .hasMessageContaining("NUL character (U+0000) at index 1");
    assertThatThrownBy(() -> tasks.run(KEY, AGENT, "half \ud800 a character", null))
        .isInstanceOf(TaskRefusedException.class)
        .hasMessageContaining("unpaired surrogate (U+D800) at index 5");
    assertThatThrownBy(() -> tasks.run(KEY, AGENT, "x", "run\u0000-41"))
        .isInstanceOf(TaskRefusedException.class)
        .hasMessageContaining("task_run_id holds a character that is not printable (U+0000");
    assertThatThrownBy(() -> tasks.run(KEY, AGENT, "x", "run-\u001b[31m"))
        .hasMessageContaining("(U+001B at position 5)");
    assertThat(requests()).isEmpty();
    assertThat(store.tasks().forKey(KEY)).isEmpty();
    assertThat(store.usage().entries(Instant.EPOCH, 100)).isEmpty();

    api.enqueue(Reply.text("done"));
    assertThat(tasks.run(KEY, AGENT, "emoji \ud83d\ude80 and\ttabs", "run-41 ✓").reply())
        .isEqualTo("done");
  }

  @Test
  void keysAreComparedExactly() {
    TaskSessions tasks =
        tasks(ScriptedBackend.resuming(new ScriptedBackend.Conversations()), store);
    TaskResult a = tasks.run("k", AGENT, "one", null);
    TaskResult b = tasks.run("k ", AGENT, "two", null);
    TaskResult c = tasks.run("K", AGENT, "three", null);
    assertThat(List.of(a.sessionId(), b.sessionId(), c.sessionId())).doesNotHaveDuplicates();
  }

  // ------------------------------------------------------------------ concurrency

  @Test
  void twentyTasksForOneSessionRunOneAtATimeInArrivalOrder() throws Exception {
    ScriptedBackend backend = ScriptedBackend.resuming(new ScriptedBackend.Conversations());
    CountDownLatch firstInside = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<String> order = new CopyOnWriteArrayList<>();
    backend.duringTurn =
        turn -> {
          most.accumulateAndGet(inside.incrementAndGet(), Math::max);
          order.add(turn.message());
          firstInside.countDown();
          try {
            gate.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          inside.decrementAndGet();
        };
    TaskSessions tasks = tasks(backend, store);
    List<Future<TaskResult>> results = new ArrayList<>();
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      results.add(pool.submit(() -> tasks.run(KEY, AGENT, "task 0", null)));
      assertThat(firstInside.await(30, TimeUnit.SECONDS)).isTrue();
      for (int i = 1; i < 20; i++) {
        String text = "task " + i;
        results.add(pool.submit(() -> tasks.run(KEY, AGENT, text, null)));
        // Arrival order: the next task is sent once this one waits in line.
        awaitWaiting(tasks, i);
      }
      gate.countDown();
      for (Future<TaskResult> f : results) {
        f.get(60, TimeUnit.SECONDS);
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      expected.add("task " + i);
    }
    assertThat(order).containsExactlyElementsOf(expected);
    assertThat(most.get()).isEqualTo(1);
    assertThat(results.get(0).get().resumed()).isFalse();
    for (int i = 1; i < 20; i++) {
      assertThat(results.get(i).get().resumed()).isTrue();
      assertThat(results.get(i).get().sessionId()).isEqualTo(results.get(0).get().sessionId());
    }
  }

  private static void awaitWaiting(TaskSessions tasks, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (tasks.waiting(KEY, AGENT) < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("task " + n + " never queued");
      }
      Thread.sleep(1);
    }
  }

  @Test
  void twentyTasksForTwentyKeysRunInParallel() throws Exception {
    ScriptedBackend backend = ScriptedBackend.resuming(new ScriptedBackend.Conversations());
    // Every turn waits until all twenty are inside the back-end at once: only parallel turns pass.
    CountDownLatch allInside = new CountDownLatch(20);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    backend.duringTurn =
        turn -> {
          most.accumulateAndGet(inside.incrementAndGet(), Math::max);
          allInside.countDown();
          try {
            if (!allInside.await(60, TimeUnit.SECONDS)) {
              throw new IllegalStateException("the turns did not overlap");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          inside.decrementAndGet();
        };
    TaskSessions tasks = tasks(backend, store);
    List<Future<TaskResult>> results = new ArrayList<>();
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 20; i++) {
        String key = "customer:" + i;
        results.add(pool.submit(() -> tasks.run(key, AGENT, "hello", null)));
      }
      for (Future<TaskResult> f : results) {
        assertThat(f.get(90, TimeUnit.SECONDS).reply()).isNotBlank();
      }
    }
    assertThat(most.get()).isEqualTo(20);
    assertThat(results.stream().map(f -> f.resultNow().sessionId()).distinct()).hasSize(20);
  }

  @Test
  void aTaskBusyPastTheWaitIsRefusedAsBusy() throws Exception {
    settings = settings.withLockWait(Duration.ofMillis(200));
    ScriptedBackend backend = ScriptedBackend.resuming(new ScriptedBackend.Conversations());
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    backend.duringTurn =
        turn -> {
          inside.countDown();
          try {
            gate.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    TaskSessions tasks = tasks(backend, store);
    // Another process: its own service on the same database, holding the session's lease.
    TaskSessions elsewhere = tasks(backend, store);
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<TaskResult> running = pool.submit(() -> tasks.run(KEY, AGENT, "long", null));
      assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
      assertThatThrownBy(() -> tasks.run(KEY, AGENT, "second", null))
          .isInstanceOf(TaskBusyException.class)
          .hasMessageContaining("earlier tasks of this session are still running");
      assertThatThrownBy(() -> elsewhere.run(KEY, AGENT, "third", null))
          .isInstanceOf(TaskBusyException.class)
          .hasMessageContaining("another Legio process");
      gate.countDown();
      running.get(30, TimeUnit.SECONDS);
    }
    assertThat(backend.turns).extracting(ScriptedBackend.Turn::message).containsExactly("long");
  }

  @Test
  void aShutdownInterruptsTheTaskRunningAndTheOneWaitingAndRefusesNewOnes() throws Exception {
    ScriptedBackend backend = ScriptedBackend.resuming(new ScriptedBackend.Conversations());
    CountDownLatch inside = new CountDownLatch(1);
    backend.duringTurn =
        turn -> {
          inside.countDown();
          try {
            new CountDownLatch(1).await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            // As the real back-ends do: an interrupted turn fails.
            throw new dev.legio.backend.BackendException("the request was interrupted");
          }
        };
    TaskSessions tasks = tasks(backend, store);
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<Boolean> running =
          pool.submit(() -> interruptedAndClear(() -> tasks.run(KEY, AGENT, "long", "run-1")));
      assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
      Future<Boolean> waiting =
          pool.submit(() -> interruptedAndClear(() -> tasks.run(KEY, AGENT, "next", null)));
      awaitWaiting(tasks, 1);

      tasks.interruptTurns();

      assertThat(running.get(30, TimeUnit.SECONDS))
          .as("the running task: interrupted, and its thread's interrupt cleared")
          .isTrue();
      assertThat(waiting.get(30, TimeUnit.SECONDS)).as("the task waiting its turn").isTrue();
    }
    assertThatThrownBy(() -> tasks.run(OTHER_KEY, AGENT, "after", null))
        .isInstanceOf(TaskInterruptedException.class)
        .hasMessageContaining("shutting down")
        .hasMessageContaining("did not run");
    assertThat(backend.turns).extracting(ScriptedBackend.Turn::message).containsExactly("long");
  }

  /**
   * True when {@code task} threw {@link TaskInterruptedException} saying Legio shut down, and left
   * its thread's interrupt cleared (the thread writes the caller's answer next).
   */
  private static boolean interruptedAndClear(java.util.concurrent.Callable<TaskResult> task) {
    try {
      task.call();
      return false;
    } catch (TaskInterruptedException e) {
      assertThat(e).hasMessageContaining("Legio shut down before " + AGENT + " answered");
      assertThat(e).hasMessageContaining("send it again");
      return !Thread.currentThread().isInterrupted();
    } catch (Exception e) {
      throw new AssertionError("not interrupted but " + e, e);
    }
  }
}
