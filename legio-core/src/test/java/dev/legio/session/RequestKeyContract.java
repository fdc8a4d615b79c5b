package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.agents.AgentDirectory;
import dev.legio.config.SessionSettings;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.NewMessage;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RequestKey}'s rules through the engine, on a real store (SQLite, PostgreSQL by the
 * subclasses): a request sent again with its key is logged once and answered once per agent,
 * whether its first turn finished, was cut by a killed process, or still runs.
 */
abstract class RequestKeyContract {
  static final String CHANNEL = "telegram:42";

  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
  private Workspace workspace;
  private LegioStore store;
  private final List<SessionEngine> engines = new ArrayList<>();
  private final ScriptedBackend backend =
      ScriptedBackend.resuming(new ScriptedBackend.Conversations());
  private final RequestKey key = new RequestKey("gateway:telegram", "message:7");

  /** Opens the store under test; called more than once to stand for several processes. */
  abstract LegioStore openStore(Path dir, MutableClock clock);

  @BeforeEach
  void setUp() {
    workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    store = openStore(dir, clock);
  }

  @AfterEach
  void tearDown() {
    engines.forEach(SessionEngine::close);
    if (store != null) {
      store.close();
    }
  }

  private SessionEngine engine(LegioStore on) {
    SessionEngine engine =
        SessionEngine.builder()
            .messageLog(on.messageLog())
            .store(on.sessions())
            .agents(new AgentDirectory(workspace.castra()))
            .backend(backend)
            .settings(SessionSettings.defaults().withLockWait(Duration.ofSeconds(30)))
            .clock(clock)
            .build();
    engines.add(engine);
    return engine;
  }

  private List<Message> logged() {
    return store.messageLog().history(100);
  }

  @Test
  void aChannelsRequestSentAgainIsLoggedOnceAndAnsweredFromTheLog() {
    SessionEngine engine = engine(store);

    Outcome first = engine.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key);
    Outcome again = engine.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key);

    assertThat(backend.turns).hasSize(1);
    assertThat(logged()).hasSize(2);
    assertThat(again.request().id()).isEqualTo(first.request().id());
    Reply reply = first.replies().get(0);
    assertThat(again.replies().get(0))
        .extracting(Reply::text, Reply::messageId, Reply::sequence, Reply::failed)
        .containsExactly(reply.text(), reply.messageId(), reply.sequence(), false);
    // Another key is another request.
    engine.handleChannel(
        CHANNEL, "hello", DispatchListener.NONE, new RequestKey("gateway:telegram", "message:8"));
    assertThat(backend.turns).hasSize(2);
    assertThat(logged()).hasSize(4);
  }

  @Test
  void aRequestWhoseProcessWasKilledDuringItsTurnRunsItOnceWhenSentAgain() {
    // What a killed process leaves: the request logged under its key's id, no answer.
    Message cut =
        store
            .messageLog()
            .append(
                NewMessage.of(CHANNEL, Audience.of(CHANNEL), "hello")
                    .withId(key.messageId(CHANNEL)));
    // The log's primary key refuses the id a second time: how two racing sends are told apart.
    assertThatThrownBy(
            () ->
                store
                    .messageLog()
                    .append(
                        NewMessage.of(CHANNEL, Audience.of(CHANNEL), "hello")
                            .withId(key.messageId(CHANNEL))))
        .isInstanceOf(dev.legio.log.MessageLogException.class);
    SessionEngine restarted = engine(store);

    Outcome again = restarted.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key);

    assertThat(again.request().id()).isEqualTo(cut.id());
    assertThat(backend.turns).hasSize(1);
    assertThat(logged()).extracting(Message::sender).containsExactly(CHANNEL, "legatus");
    assertThat(logged().get(1).replyTo()).isEqualTo(cut.id());
    assertThat(again.replies().get(0).messageId()).isEqualTo(logged().get(1).id());
  }

  @Test
  void aRequestWhoseTurnTheShutdownInterruptedRunsItOnceWhenSentAgain() {
    // What a drain whose grace ran out leaves: the request under its key's id, and the session's
    // note that Legio shut down before it answered (logged as its reply, so the history shows it).
    Message cut =
        store
            .messageLog()
            .append(
                NewMessage.of(CHANNEL, Audience.of(CHANNEL), "hello")
                    .withId(key.messageId(CHANNEL)));
    Owner channel = Owner.of(CHANNEL);
    store
        .messageLog()
        .append(InterruptionNote.of(cut, CHANNEL, channel.speaker(), channel.replyAudience()));
    SessionEngine restarted = engine(store);

    Outcome again = restarted.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key);
    Outcome third = restarted.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key);

    assertThat(backend.turns).as("the note is no answer: the turn ran, once").hasSize(1);
    Reply reply = again.replies().get(0);
    assertThat(reply.failed()).isFalse();
    assertThat(reply.text()).isNotEqualTo(InterruptionNote.text(CHANNEL));
    assertThat(InterruptionNote.isNote(again, reply)).isFalse();
    assertThat(third.replies().get(0).messageId()).isEqualTo(reply.messageId());
    assertThat(logged()).hasSize(3);
  }

  @Test
  void caesarsRequestSentAgainRunsTurnsOnlyForTheAgentsThatHadNotAnswered() {
    SessionEngine engine = engine(store);
    RequestKey caesars = new RequestKey("token:operator", "7f3c");
    Message request =
        store
            .messageLog()
            .append(
                NewMessage.of(
                        "caesar", Audience.of(List.of("vorenus", "pullo")), "@vorenus @pullo go")
                    .withId(caesars.messageId("caesar")));
    Message vorenusAnswered =
        store
            .messageLog()
            .append(
                NewMessage.of("vorenus", Audience.of("caesar"), "done before the crash")
                    .replyingTo(request.id()));

    Outcome again = engine.handle("@vorenus @pullo go", DispatchListener.NONE, caesars);

    assertThat(backend.turns).extracting(ScriptedBackend.Turn::owner).containsExactly("pullo");
    assertThat(again.replies())
        .extracting(Reply::agent, Reply::messageId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("vorenus", vorenusAnswered.id()),
            org.assertj.core.groups.Tuple.tuple("pullo", logged().get(2).id()));
    assertThat(logged()).hasSize(3);
  }

  @Test
  void aKeySentAgainWithAnotherTextIsRefusedAndNothingIsLogged() {
    SessionEngine engine = engine(store);
    engine.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key);

    assertThatThrownBy(() -> engine.handleChannel(CHANNEL, "goodbye", DispatchListener.NONE, key))
        .isInstanceOf(RequestKeyReusedException.class)
        .hasMessageContaining("a new message needs a new key");
    RequestKey caesars = new RequestKey("token:operator", "7f3c");
    engine.handle("@vorenus hello", DispatchListener.NONE, caesars);
    assertThatThrownBy(() -> engine.handle("@pullo hello", DispatchListener.NONE, caesars))
        .as("the same key and text to other agents")
        .isInstanceOf(RequestKeyReusedException.class);
    assertThat(logged()).hasSize(4);
    assertThat(backend.turns).hasSize(2);
  }

  @Test
  void aRequestSentAgainWhileItsFirstTurnRunsWaitsAndGetsTheSameAnswer() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    backend.duringTurn =
        turn -> {
          inside.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    SessionEngine engine = engine(store);
    try (ExecutorService pool = Executors.newCachedThreadPool()) {
      Future<Outcome> first =
          pool.submit(() -> engine.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key));
      assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
      Future<Outcome> again =
          pool.submit(() -> engine.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key));
      Thread.sleep(200); // the second send is queued behind the first's turn (or about to be)
      release.countDown();

      Reply a = first.get(30, TimeUnit.SECONDS).replies().get(0);
      Reply b = again.get(30, TimeUnit.SECONDS).replies().get(0);
      assertThat(b.messageId()).isEqualTo(a.messageId());
      assertThat(b.failed()).isFalse();
    }
    assertThat(backend.turns).hasSize(1);
    assertThat(logged()).hasSize(2);
  }

  @Test
  void twoProcessesSentTheSameRequestAtOnceLogItOnceAndRunOneTurn() throws Exception {
    SessionEngine one = engine(store);
    LegioStore otherStore = openStore(dir, clock);
    try {
      SessionEngine other = engine(otherStore);
      CyclicBarrier start = new CyclicBarrier(2);
      try (ExecutorService pool = Executors.newCachedThreadPool()) {
        Future<Outcome> a =
            pool.submit(
                () -> {
                  start.await(30, TimeUnit.SECONDS);
                  return one.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key);
                });
        Future<Outcome> b =
            pool.submit(
                () -> {
                  start.await(30, TimeUnit.SECONDS);
                  return other.handleChannel(CHANNEL, "hello", DispatchListener.NONE, key);
                });
        Reply ra = a.get(60, TimeUnit.SECONDS).replies().get(0);
        Reply rb = b.get(60, TimeUnit.SECONDS).replies().get(0);
        assertThat(ra.failed()).as(ra.text()).isFalse();
        assertThat(rb.failed()).as(rb.text()).isFalse();
        assertThat(rb.messageId()).isEqualTo(ra.messageId());
      }
      assertThat(backend.turns).hasSize(1);
      assertThat(logged()).hasSize(2);
    } finally {
      engines.forEach(SessionEngine::close);
      engines.clear();
      otherStore.close();
    }
  }

  @Test
  void aKeyIsOneToTwoHundredPrintableCharacters() {
    assertThatThrownBy(() -> new RequestKey("s", "")).hasMessageContaining("1-200 printable");
    assertThatThrownBy(() -> new RequestKey("s", "a b")).hasMessageContaining("without spaces");
    assertThatThrownBy(() -> new RequestKey("s", "x".repeat(201)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RequestKey("s", "é")).isInstanceOf(IllegalArgumentException.class);
    assertThat(new RequestKey("s", "x".repeat(200)).messageId(CHANNEL))
        .isEqualTo(new RequestKey("s", "x".repeat(200)).messageId(CHANNEL))
        .isNotEqualTo(new RequestKey("t", "x".repeat(200)).messageId(CHANNEL))
        .isNotEqualTo(new RequestKey("s", "x".repeat(200)).messageId("telegram:43"));
  }
}
