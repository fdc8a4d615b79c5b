package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.SessionLostException;
import dev.legio.config.SessionSettings;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.NewMessage;
import dev.legio.log.PraetoriumXml;
import dev.legio.testing.InMemoryMessageLog;
import dev.legio.testing.InMemorySessionStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link TurnRunner}: one turn, from a logged request to a logged reply, a saved record and a
 * released lease, over an in-memory log and store (the real ones are covered by {@code
 * SessionEngineContract}).
 */
class TurnRunnerTest {
  @TempDir Path dir;

  private static final Duration LEASE = SessionSettings.DEFAULT_LEASE_TTL;

  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  private final InMemoryMessageLog log = new InMemoryMessageLog(clock);
  private final InMemorySessionStore store = new InMemorySessionStore();
  private final ScriptedBackend backend = ScriptedBackend.forgetful();
  private final RebuildCounter rebuilds = new RebuildCounter(new SessionEvents());
  private final List<CompletedTurn> heard = new CopyOnWriteArrayList<>();

  enum Scenario {
    /** The model answers. */
    ANSWERS,
    /** The model answers with blanks. */
    BLANK,
    /** The back-end throws. */
    FAILS,
    /** Another process holds the lease for longer than the wait. */
    LEASED_ELSEWHERE,
    /** The lease was taken with the request. */
    PRE_LEASED,
    /** The back-end lost the conversation in the first attempt. */
    LOST,
    /**
     * This process pauses mid-turn (no heartbeat) past the lease's time, and another node takes the
     * session over.
     */
    PAUSED,
    /**
     * As {@link #PAUSED}, and what fails first is the back-end (the stored conversation that the
     * other node continued), not the turn's end.
     */
    PAUSED_THEN_FAILS
  }

  @ParameterizedTest(name = "{0} for {1}")
  @CsvSource(
      nullValues = "-",
      value = {
        // scenario,     owner,      answer,                                             failed,
        // from,    to,         activity, opened, rebuild
        "ANSWERS,          vorenus,    vorenus answer 1,                                  false, vorenus, caesar,     IDLE,  1, -",
        "ANSWERS,          telegram:1, telegram:1 answer 1,                               false, legatus, telegram:1, IDLE,  1, -",
        "BLANK,            vorenus,    (no answer),                                       false, vorenus, caesar,     IDLE,  1, -",
        "FAILS,            vorenus,    [vorenus] An error occurred during processing.,    true,  -,       -,          ERROR, 1, -",
        "LEASED_ELSEWHERE, vorenus,    another Legio process holds its session,           true,  -,       -,          IDLE,  0, -",
        "PRE_LEASED,       pullo,      pullo answer 1,                                    false, pullo,   caesar,     IDLE,  1, -",
        "LOST,             vorenus,    vorenus answer 1,                                  false, vorenus, caesar,     IDLE,  2, BACKEND_LOST",
        "PAUSED,           vorenus,    vorenus answer 1,                                  true,  -,       -,          IDLE,  1, -",
        "PAUSED,           telegram:1, telegram:1 answer 1,                               true,  -,       -,          IDLE,  1, -",
        "PAUSED_THEN_FAILS, vorenus,   another node took the session over meanwhile,     true,  -,       -,          IDLE,  1, -",
      })
  void aTurnEndsWithItsReplyLoggedItsRecordSavedAndTheLeaseReleased(
      Scenario scenario,
      String owner,
      String answer,
      boolean failed,
      String from,
      String to,
      Activity activity,
      int opened,
      RebuildReason rebuild)
      throws Exception {
    SessionSettings settings = SessionSettings.defaults().withLockWait(Duration.ofSeconds(1));
    AtomicBoolean lostOnce = new AtomicBoolean();
    switch (scenario) {
      case BLANK -> backend.answer = turn -> "  \n";
      case FAILS -> backend.failing.add(owner);
      case LEASED_ELSEWHERE ->
          store.tryLease(owner, "another-process", clock.instant(), Duration.ofMinutes(15));
      case LOST ->
          backend.duringTurn =
              turn -> {
                if (lostOnce.compareAndSet(false, true)) {
                  throw new SessionLostException("the back-end no longer has the conversation");
                }
              };
      case PAUSED ->
          backend.duringTurn =
              turn -> {
                clock.advance(LEASE.plusSeconds(1));
                assertThat(store.tryLease(owner, "node-b", clock.instant(), LEASE)).isTrue();
              };
      case PAUSED_THEN_FAILS ->
          backend.duringTurn =
              turn -> {
                clock.advance(LEASE.plusSeconds(1));
                assertThat(store.tryLease(owner, "node-b", clock.instant(), LEASE)).isTrue();
                throw new dev.legio.backend.BackendException(
                    "appending turn 1 was refused (another process continued it)");
              };
      default -> {}
    }
    LeaseGate leases = new LeaseGate(store, "me", LEASE, clock, clock, clock::advance);
    TurnRunner runner = runner(settings, leases);
    log.append(NewMessage.of("caesar", Audience.ALL, "earlier"));
    Message request = log.append(NewMessage.of("caesar", Audience.of(owner), "hello"));
    boolean preLeased = scenario == Scenario.PRE_LEASED && leases.acquire(owner, Duration.ZERO);
    OwnerSlot slot = new OwnerSlot(Owner.of(owner));

    Reply reply =
        runner.run(slot, slot.queue.enqueue(), request, DispatchListener.NONE, preLeased, false);
    runner.close();

    assertThat(reply.agent()).isEqualTo(owner);
    assertThat(reply.failed()).isEqualTo(failed);
    assertThat(reply.text()).contains(answer);
    assertThat(slot.activity).isEqualTo(activity);
    assertThat(backend.opened).hasSize(opened);
    assertThat(store.holderOf(owner))
        .isEqualTo(
            switch (scenario) {
              case LEASED_ELSEWHERE -> java.util.Optional.of("another-process");
              case PAUSED, PAUSED_THEN_FAILS -> java.util.Optional.of("node-b");
              default -> java.util.Optional.<String>empty();
            });
    assertThat(rebuilds.snapshot().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(rebuild == null ? 0 : 1);
    if (rebuild != null) {
      assertThat(rebuilds.snapshot()).containsEntry(rebuild, 1L);
    }
    if (scenario == Scenario.PAUSED) {
      // The answer came before the lease was found lost: it is given (its tokens are spent), to
      // an agent's caller after what happened; to a channel's outsider alone, as any answer.
      assertThat(reply.text())
          .isEqualTo(
              slot.owner.isChannel()
                  ? answer
                  : FailedReplies.leaseLostAnswerText(owner) + "\n\n" + answer);
    }
    if (from == null) {
      assertThat(log.all()).hasSize(2).endsWith(request);
      assertThat(reply.messageId()).isNull();
      assertThat(heard).isEmpty();
      return;
    }
    Message logged = log.find(reply.messageId()).orElseThrow();
    assertThat(logged.sender()).isEqualTo(from);
    assertThat(logged.audience()).isEqualTo(Audience.of(to));
    assertThat(logged.replyTo()).isEqualTo(request.id());
    assertThat(logged.text()).isEqualTo(answer);
    SessionRecord record = store.find(owner).orElseThrow();
    assertThat(record.messageCount()).isEqualTo(1);
    assertThat(record.inputTokens()).isEqualTo(10);
    assertThat(record.lastInjectedSequence()).isEqualTo(request.sequence());
    assertThat(record.rebuilds()).isEqualTo(rebuild == null ? 0 : 1);
    assertThat(record.expiresAt()).isEqualTo(clock.instant().plus(Duration.ofDays(30)));
    assertThat(heard)
        .singleElement()
        .satisfies(
            turn -> {
              assertThat(turn.owner()).isEqualTo(owner);
              assertThat(turn.fresh()).isTrue();
              assertThat(turn.reply()).isEqualTo(answer);
              assertThat(turn.sent()).endsWith("hello");
              assertThat(turn.sessionId()).isEqualTo(record.sessionId());
            });
    if (scenario == Scenario.LOST) {
      // The turn was sent again to the new session, bootstrapped as a fresh one.
      assertThat(backend.turns).hasSize(2);
      assertThat(backend.turns.get(1).message())
          .isEqualTo(backend.turns.get(0).message())
          .contains("earlier")
          .contains(PraetoriumXml.CONTEXT_NOTICE);
      // ... with the first send's start: the back-end's turn time-out bounds both sends.
      assertThat(backend.starts).hasSize(2);
      assertThat(backend.starts.get(1)).isSameAs(backend.starts.get(0));
    }
  }

  @ParameterizedTest(name = "shutting down: {0}")
  @CsvSource({"true", "false"})
  void aTurnInterruptedByShutdownIsAnsweredAndLoggedAsInterrupted(boolean closing)
      throws Exception {
    LeaseGate leases =
        new LeaseGate(store, "me", Duration.ofMinutes(15), clock, clock, clock::advance);
    TurnRunner runner =
        new TurnRunner(
            log,
            leases,
            new OwnerProfiles(agents(), SessionSettings.defaults(), backend, null),
            new SessionLifecycle(
                store,
                SessionSettings.defaults(),
                MemoryPrompt.NONE,
                rebuilds,
                0,
                UnfinishedEdits.NONE),
            new HistoryInjector(log::visibleTo, centuriones -> "<status/>"),
            SessionSettings.defaults(),
            clock,
            backend.displayName(),
            heard::add,
            new SessionEvents(),
            SessionCondenser.off(),
            () -> closing);
    backend.failing.add("vorenus");
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "hello"));
    OwnerSlot slot = new OwnerSlot(Owner.of("vorenus"));

    Reply reply =
        runner.run(slot, slot.queue.enqueue(), request, DispatchListener.NONE, false, false);
    runner.close();

    assertThat(reply.failed()).isTrue();
    if (closing) {
      assertThat(reply.text()).isEqualTo("(interrupted: Legio shut down before vorenus answered)");
      assertThat(log.find(reply.messageId()).orElseThrow().replyTo()).isEqualTo(request.id());
    } else {
      assertThat(reply.text()).isEqualTo("[vorenus] An error occurred during processing.");
      assertThat(reply.messageId()).isNull();
    }
    assertThat(store.holderOf("vorenus")).isEmpty();
  }

  @Test
  void aTurnThatFailsBeforeItBeginsIsAnsweredAsFailedAndStillDescribesItsAgent() throws Exception {
    // The database is gone when the turn asks for its lease.
    SessionStore unreachable =
        (SessionStore)
            Proxy.newProxyInstance(
                SessionStore.class.getClassLoader(),
                new Class<?>[] {SessionStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("tryLease")) {
                    throw new SessionStoreException("the database is unreachable");
                  }
                  try {
                    return method.invoke(store, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    TurnRunner runner =
        runner(
            SessionSettings.defaults(),
            new LeaseGate(unreachable, "me", LEASE, clock, clock, clock::advance));
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "hello"));
    OwnerSlot slot = new OwnerSlot(Owner.of("vorenus"));

    Reply reply =
        runner.run(slot, slot.queue.enqueue(), request, DispatchListener.NONE, false, false);
    // A channel's outsider is told of no database: the generic error, as for any failure.
    Message outside =
        log.append(NewMessage.of("telegram:1", Audience.of("telegram:1"), "hello from outside"));
    OwnerSlot channel = new OwnerSlot(Owner.channel("telegram:1"));
    Reply toOutsider =
        runner.run(channel, channel.queue.enqueue(), outside, DispatchListener.NONE, false, false);
    runner.close();

    assertThat(reply.failed()).isTrue();
    assertThat(reply.text()).isEqualTo(FailedReplies.storeFailedText("vorenus"));
    assertThat(reply.description()).isNotEmpty().isEqualTo(descriptionOf("vorenus"));
    assertThat(toOutsider.failed()).isTrue();
    assertThat(toOutsider.text())
        .isEqualTo("[telegram:1] An error occurred during processing.")
        .doesNotContain("database");
  }

  @Test
  void anAnswerThatCannotBeStoredIsGivenAllTheSameSayingItIsNotInTheHistory() throws Exception {
    // The model answered (its tokens are spent); the database fails as the reply is stored.
    SessionStore storingFails =
        (SessionStore)
            Proxy.newProxyInstance(
                SessionStore.class.getClassLoader(),
                new Class<?>[] {SessionStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("finishTurn")) {
                    throw new SessionStoreException("the database is unreachable");
                  }
                  try {
                    return method.invoke(store, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    backend.answer = turn -> "the answer <b>it paid for</b>";
    TurnRunner runner =
        runner(
            SessionSettings.defaults(),
            new LeaseGate(storingFails, "me", LEASE, clock, clock, clock::advance));
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "hello"));
    OwnerSlot slot = new OwnerSlot(Owner.of("vorenus"));
    Message outside =
        log.append(NewMessage.of("telegram:1", Audience.of("telegram:1"), "hello from outside"));
    OwnerSlot channel = new OwnerSlot(Owner.channel("telegram:1"));

    Reply reply =
        runner.run(slot, slot.queue.enqueue(), request, DispatchListener.NONE, false, false);
    Reply toOutsider =
        runner.run(channel, channel.queue.enqueue(), outside, DispatchListener.NONE, false, false);
    runner.close();

    assertThat(reply.failed()).isTrue();
    assertThat(reply.messageId()).isNull();
    assertThat(reply.text())
        .isEqualTo(FailedReplies.unstoredText("vorenus") + "\n\nthe answer <b>it paid for</b>");
    assertThat(reply.description()).isEqualTo(descriptionOf("vorenus"));
    // A channel's outsider gets the answer as any answer, told of no database.
    assertThat(toOutsider.failed()).isTrue();
    assertThat(toOutsider.text()).isEqualTo("the answer <b>it paid for</b>");
    // Nothing was logged, and the leases are free.
    assertThat(log.size()).as("the two requests only").isEqualTo(2);
    assertThat(store.holderOf("vorenus")).isEmpty();
    assertThat(store.holderOf("telegram:1")).isEmpty();
  }

  @Test
  void aLeaseReleaseThatFailsDoesNotChangeAFailedTurnsAnswer() throws Exception {
    // The database goes away between the turn and the release of its lease.
    SessionStore releaseFails =
        (SessionStore)
            Proxy.newProxyInstance(
                SessionStore.class.getClassLoader(),
                new Class<?>[] {SessionStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("releaseLease")) {
                    throw new SessionStoreException("releasing the lease failed: connection lost");
                  }
                  try {
                    return method.invoke(store, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    TurnRunner runner =
        runner(
            SessionSettings.defaults(),
            new LeaseGate(releaseFails, "me", LEASE, clock, clock, clock::advance));
    backend.failing.add("vorenus");
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "hello"));
    OwnerSlot slot = new OwnerSlot(Owner.of("vorenus"));

    Reply reply =
        runner.run(slot, slot.queue.enqueue(), request, DispatchListener.NONE, false, false);

    // The back-end's failure is the answer, not a database failure the release added after it.
    assertThat(reply.failed()).isTrue();
    assertThat(reply.text()).isEqualTo("[vorenus] An error occurred during processing.");
    assertThat(slot.activity).isEqualTo(Activity.ERROR);
    runner.close();
  }

  @Test
  void aDispatchInterruptedWhileItsTurnRunsAnswersAsInterruptedAndStillDescribesItsAgent()
      throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    backend.duringTurn =
        turn -> {
          started.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    TurnRunner runner =
        runner(
            SessionSettings.defaults(),
            new LeaseGate(store, "me", LEASE, clock, clock, clock::advance));
    ParallelTurns parallel = new ParallelTurns(runner);
    Message request = log.append(NewMessage.of("caesar", Audience.of("vorenus"), "hello"));
    OwnerSlot slot = new OwnerSlot(Owner.of("vorenus"));
    AtomicReference<List<Reply>> replies = new AtomicReference<>();
    Thread caller =
        Thread.ofPlatform()
            .start(
                () ->
                    replies.set(
                        parallel.run(
                            List.of(slot),
                            List.of(slot.queue.enqueue()),
                            request,
                            DispatchListener.NONE,
                            false)));
    try {
      assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
      caller.interrupt();
      caller.join(30_000);
    } finally {
      release.countDown();
    }
    parallel.shutdown();
    runner.close();

    Reply reply = replies.get().get(0);
    assertThat(reply.failed()).isTrue();
    assertThat(reply.text()).isEqualTo("[vorenus] Interrupted.");
    assertThat(reply.description()).isNotEmpty().isEqualTo(descriptionOf("vorenus"));
  }

  /** {@code agent}'s description, as its profile gives it. */
  private String descriptionOf(String agent) throws Exception {
    return new OwnerProfiles(agents(), SessionSettings.defaults(), backend, null)
        .resolve(Owner.of(agent))
        .description();
  }

  private TurnRunner runner(SessionSettings settings, LeaseGate leases) throws Exception {
    return new TurnRunner(
        log,
        leases,
        new OwnerProfiles(agents(), settings, backend, null),
        new SessionLifecycle(store, settings, MemoryPrompt.NONE, rebuilds, 0, UnfinishedEdits.NONE),
        new HistoryInjector(log::visibleTo, centuriones -> "<status/>"),
        settings,
        clock,
        backend.displayName(),
        heard::add,
        new SessionEvents(),
        SessionCondenser.off(),
        () -> false);
  }

  private AgentDirectory agents() throws Exception {
    Workspace workspace = new Workspace(dir);
    if (!java.nio.file.Files.exists(workspace.castra())) {
      WorkspaceInitializer.initialise(workspace);
    }
    return new AgentDirectory(workspace.castra());
  }
}
