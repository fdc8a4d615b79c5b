package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.ContextUse;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TokenEstimator;
import dev.legio.config.LegatusSettings;
import dev.legio.config.SessionSettings;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import dev.legio.log.PraetoriumXml;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session engine's rules, on a real store. Time is a {@link MutableClock}: no test sleeps to
 * make time pass. Subclasses choose the store (SQLite, PostgreSQL).
 */
abstract class SessionEngineContract {
  private static final Pattern PRAETORIUM =
      Pattern.compile("<praetorium\\b[^>]*>.*?</praetorium>", Pattern.DOTALL);

  @TempDir Path dir;
  MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  Workspace workspace;
  LegioStore store;
  List<SessionEngine> engines = new ArrayList<>();
  SessionSettings settings = SessionSettings.defaults();
  LegatusSettings legatus = LegatusSettings.defaults();

  /** Opens the store under test; called more than once to stand for several processes. */
  abstract LegioStore openStore(Path dir, MutableClock clock);

  @BeforeEach
  void setUp() throws Exception {
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

  SessionEngine engine(ModelBackend backend) {
    return engine(backend, store);
  }

  SessionEngine engine(ModelBackend backend, LegioStore on) {
    SessionEngine engine =
        SessionEngine.builder()
            .messageLog(on.messageLog())
            .store(on.sessions())
            .agents(new AgentDirectory(workspace.castra()))
            .backend(backend)
            .settings(settings)
            .legatus(legatus)
            .clock(clock)
            .build();
    engines.add(engine);
    return engine;
  }

  /** An engine on the store whose turn listener is {@code listener}. */
  SessionEngine engineHearing(TurnListener listener) {
    SessionEngine engine =
        SessionEngine.builder()
            .messageLog(log())
            .store(sessions())
            .agents(new AgentDirectory(workspace.castra()))
            .backend(ScriptedBackend.forgetful())
            .settings(settings)
            .clock(clock)
            .turnListener(listener)
            .build();
    engines.add(engine);
    return engine;
  }

  MessageLog log() {
    return store.messageLog();
  }

  SessionStore sessions() {
    return store.sessions();
  }

  static List<PraetoriumXml.Entry> injected(String message) {
    Matcher m = PRAETORIUM.matcher(message);
    return m.find() ? PraetoriumXml.parse(m.group()).entries() : List.of();
  }

  static boolean hasNotice(String message) {
    return message.contains(PraetoriumXml.CONTEXT_NOTICE);
  }

  void writePrompt(String agent, String frontMatter, String body) throws Exception {
    Path file =
        agent.equals("legatus")
            ? workspace.castra().resolve("legatus/prompt.md")
            : workspace.castra().resolve("centuriones/" + agent + "/prompt.md");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "---\n" + frontMatter + "\n---\n" + body + "\n");
    // Editors change the modification time; make sure it differs from the cached read.
    Files.setLastModifiedTime(
        file,
        java.nio.file.attribute.FileTime.fromMillis(
            Files.getLastModifiedTime(file).toMillis() + 2_000));
  }

  // ------------------------------------------------------------------ routing

  @Test
  void aMessageWithoutMentionGoesToTheLegatusAndItsReplyToCaesar() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    Outcome outcome = engine(backend).handle("What is the status?", DispatchListener.NONE);

    assertThat(outcome.ok()).isTrue();
    assertThat(outcome.request().audience().names()).containsExactly("legatus");
    assertThat(outcome.request().sender()).isEqualTo("caesar");
    Reply reply = outcome.replies().get(0);
    assertThat(reply.agent()).isEqualTo("legatus");
    Message logged = log().find(reply.messageId()).orElseThrow();
    assertThat(logged.sender()).isEqualTo("legatus");
    assertThat(logged.audience().names()).containsExactly("caesar");
    assertThat(logged.replyTo()).isEqualTo(outcome.request().id());
    assertThat(logged.text()).isEqualTo("legatus answer 1");
  }

  @Test
  void anAnswerTheLogCouldNotKeepIsKeptCutRatherThanLost() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    long max = log().maxTextBytes();
    backend.answer = turn -> "é".repeat((int) max) + "\u0000"; // 2 bytes each: twice the maximum
    Outcome outcome = engine(backend).handle("@vorenus tell me everything", DispatchListener.NONE);

    assertThat(outcome.ok()).isTrue();
    Reply reply = outcome.replies().get(0);
    assertThat(reply.failed()).isFalse();
    Message logged = log().find(reply.messageId()).orElseThrow();
    assertThat(logged.replyTo()).isEqualTo(outcome.request().id());
    assertThat(logged.text()).isEqualTo(reply.text()).startsWith("éé");
    assertThat((long) logged.text().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(max)
        .isGreaterThan(max - 4);
    assertThat(logged.text())
        .endsWith(
            "[… the answer was cut here: it was "
                + (2 * max + 3) // the NUL is now U+FFFD, 3 bytes
                + " bytes, more than [praetorium] max_message_bytes ("
                + max
                + ")]");
  }

  @Test
  void severalMentionsDispatchInParallelWithOneLoggedRequest() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    CyclicBarrier both = new CyclicBarrier(2);
    backend.duringTurn =
        turn -> {
          try {
            // Each turn waits for the other: this only passes if they run at the same time.
            both.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException("turns did not run in parallel", e);
          }
        };
    Outcome outcome =
        engine(backend).handle("@vorenus @pullo compare the two roads", DispatchListener.NONE);

    assertThat(outcome.ok()).as(outcome.toString()).isTrue();
    assertThat(outcome.request().audience().names()).containsExactly("vorenus", "pullo");
    assertThat(outcome.replies()).extracting(Reply::agent).containsExactly("vorenus", "pullo");
    for (Reply reply : outcome.replies()) {
      Message logged = log().find(reply.messageId()).orElseThrow();
      assertThat(logged.replyTo()).isEqualTo(outcome.request().id());
      assertThat(logged.audience().names()).containsExactly("caesar");
    }
    assertThat(log().size()).isEqualTo(3);
  }

  @Test
  void oneAgentFailingAnswersWithAnErrorAndDoesNotBlockTheOthers() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    backend.failing.add("vorenus");
    SessionEngine engine = engine(backend);
    Outcome outcome = engine.handle("@vorenus @pullo report", DispatchListener.NONE);

    assertThat(outcome.ok()).isFalse();
    Reply vorenus = outcome.replies().get(0);
    Reply pullo = outcome.replies().get(1);
    assertThat(vorenus.failed()).isTrue();
    assertThat(vorenus.text()).isEqualTo("[vorenus] An error occurred during processing.");
    assertThat(pullo.failed()).isFalse();
    assertThat(pullo.text()).isEqualTo("pullo answer 1");
    assertThat(engine.status())
        .filteredOn(s -> s.owner().equals("vorenus"))
        .extracting(SessionStatus::activity)
        .containsExactly("error");
    // The failed turn did not count as received: its messages come again next time.
    backend.failing.clear();
    engine.handle("@vorenus again", DispatchListener.NONE);
    List<ScriptedBackend.Turn> turns = backend.turnsOf("vorenus");
    assertThat(injected(turns.get(1).message()))
        .extracting(PraetoriumXml.Entry::text)
        .containsExactly("@vorenus @pullo report");
  }

  @Test
  void anUnknownMentionIsRefusedListingTheKnownAgentsAndNothingIsLogged() {
    Outcome outcome =
        engine(ScriptedBackend.forgetful()).handle("@brutus @vorenus hi", DispatchListener.NONE);

    assertThat(outcome.refusal())
        .isEqualTo("Unknown agent @brutus. Known agents: @legatus, @pullo, @vorenus.");
    assertThat(outcome.ok()).isFalse();
    assertThat(log().size()).isZero();
  }

  @Test
  void repliesAreShownUnderAnAttributionHeader() {
    Outcome outcome =
        engine(ScriptedBackend.forgetful()).handle("@vorenus hi", DispatchListener.NONE);
    assertThat(SessionEngine.header(outcome.replies().get(0)))
        .isEqualTo(
            "⚔️ vorenus — Technology analysis specialist. Reviews designs and code, weighs"
                + " trade-offs.\n━━━━━━━━━━━━");
  }

  // ------------------------------------------------------------------ context injection

  @Test
  void anAgentsFirstDispatchCarriesItsVisibleHistoryAndLaterOnesOnlyWhatIsNew() {
    Message forVorenus = log().append(NewMessage.of("caesar", Audience.of("vorenus"), "old 1"));
    log().append(NewMessage.of("caesar", Audience.of("pullo"), "not for vorenus"));
    Message forAll = log().append(NewMessage.of("legatus", Audience.ALL, "old 2"));
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);

    engine.handle("@vorenus first", DispatchListener.NONE);
    Message later = log().append(NewMessage.of("pullo", Audience.of("vorenus"), "news"));
    engine.handle("@vorenus second", DispatchListener.NONE);
    engine.handle("@vorenus third", DispatchListener.NONE);

    List<ScriptedBackend.Turn> turns = backend.turnsOf("vorenus");
    assertThat(injected(turns.get(0).message()))
        .extracting(PraetoriumXml.Entry::id)
        .containsExactly(forVorenus.id(), forAll.id());
    assertThat(hasNotice(turns.get(0).message())).isTrue();
    assertThat(turns.get(0).message()).endsWith("\n\n@vorenus first");
    assertThat(injected(turns.get(1).message()))
        .extracting(PraetoriumXml.Entry::id)
        .containsExactly(later.id());
    assertThat(hasNotice(turns.get(1).message())).isFalse();
    assertThat(turns.get(2).message()).isEqualTo("@vorenus third");
  }

  @Test
  void aPerAgentHistoryWindowFromTheFrontMatterLimitsTheBootstrap() throws Exception {
    writePrompt("vorenus", "description: Analyst\nhistory_window: 2", "You analyse.");
    for (int i = 0; i < 5; i++) {
      log().append(NewMessage.of("caesar", Audience.of("vorenus"), "m" + i));
    }
    ScriptedBackend backend = ScriptedBackend.forgetful();
    engine(backend).handle("@vorenus go", DispatchListener.NONE);
    assertThat(injected(backend.turnsOf("vorenus").get(0).message()))
        .extracting(PraetoriumXml.Entry::text)
        .containsExactly("m3", "m4");
  }

  /**
   * The seed system compared ISO timestamps as text, so messages logged in the same microsecond
   * were dropped or repeated. Sequence numbers make it exact.
   */
  @Test
  void acrossAThousandDispatchesWithTiedTimestampsEveryVisibleMessageArrivesExactlyOnce() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    Random random = new Random(42);
    for (int i = 0; i < 1000; i++) {
      int others = random.nextInt(4);
      for (int k = 0; k < others; k++) {
        String to =
            switch (random.nextInt(3)) {
              case 0 -> "vorenus";
              case 1 -> "all";
              default -> "pullo";
            };
        log()
            .append(
                NewMessage.of(
                    random.nextBoolean() ? "legatus" : "pullo",
                    Audience.of(to),
                    "n" + i + "." + k));
      }
      engine.handle("@vorenus task " + i, DispatchListener.NONE);
    }
    assertThat(clock.instant()).isEqualTo(MutableClock.at("2026-11-21T09:00:00Z").instant());

    Map<UUID, Integer> received = new HashMap<>();
    Map<String, UUID> requestIds = new HashMap<>();
    for (Message m : log().visibleTo("vorenus", 100_000)) {
      if (m.text().startsWith("@vorenus task ")) {
        requestIds.put(m.text(), m.id());
      }
    }
    for (ScriptedBackend.Turn turn : backend.turnsOf("vorenus")) {
      for (PraetoriumXml.Entry e : injected(turn.message())) {
        received.merge(e.id(), 1, Integer::sum);
      }
      String request = turn.message().substring(turn.message().lastIndexOf("@vorenus task "));
      received.merge(requestIds.get(request), 1, Integer::sum);
    }
    List<Message> visible = log().visibleTo("vorenus", 100_000);
    assertThat(visible).hasSizeGreaterThan(1500);
    List<Message> fromOthers = visible.stream().filter(m -> !m.sender().equals("vorenus")).toList();
    for (Message m : visible) {
      // Its own answers are visible to it, but its live session holds them: never injected.
      assertThat(received.get(m.id()))
          .as("times %s was received", m.text())
          .isEqualTo(m.sender().equals("vorenus") ? null : 1);
    }
    assertThat(received).hasSize(fromOthers.size());
  }

  // ------------------------------------------------------------------ the legatus

  @Test
  void theLegatusGetsTheRosterInItsSystemPromptAndTheStatusInEachMessage() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handle("hello", DispatchListener.NONE);
    engine.handle("again", DispatchListener.NONE);

    SessionSpec spec = backend.opened.get(0);
    assertThat(spec.systemPrompt())
        .contains("# Legatus")
        .contains("<centuriones>")
        .contains("<centurio name=\"vorenus\">Technology analysis specialist.")
        .doesNotContain("centurio_status");
    for (ScriptedBackend.Turn turn : backend.turnsOf("legatus")) {
      assertThat(turn.message())
          .contains(
              "<centurio_status>\n<centurio name=\"pullo\" status=\"idle\"/>\n"
                  + "<centurio name=\"vorenus\" status=\"idle\"/>\n</centurio_status>");
    }
  }

  @Test
  void theLegatusIsBootstrappedFromTheWholeLogOnlyOnTheFirstQueryOfAFreshSession() {
    log().append(NewMessage.of("caesar", Audience.of("vorenus"), "earlier, to vorenus"));
    log().append(NewMessage.of("vorenus", Audience.of("caesar"), "vorenus's answer"));
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handle("first", DispatchListener.NONE);
    engine.handle("second", DispatchListener.NONE);

    List<ScriptedBackend.Turn> turns = backend.turnsOf("legatus");
    assertThat(injected(turns.get(0).message()))
        .extracting(PraetoriumXml.Entry::text)
        .containsExactly("earlier, to vorenus", "vorenus's answer");
    assertThat(hasNotice(turns.get(0).message())).isTrue();
    assertThat(injected(turns.get(1).message())).isEmpty();
    assertThat(hasNotice(turns.get(1).message())).isFalse();
  }

  @Test
  void theLegatusNextTurnHoldsTheCaesarVorenusExchangeExactlyOnceWithinTheBound() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handle("hello", DispatchListener.NONE);
    engine.handle("@vorenus review this code", DispatchListener.NONE);
    engine.handle("what did vorenus say?", DispatchListener.NONE);
    engine.handle("and now?", DispatchListener.NONE);

    List<ScriptedBackend.Turn> turns = backend.turnsOf("legatus");
    assertThat(turns).hasSize(3);
    String second = turns.get(1).message();
    assertThat(second.indexOf("</centurio_status>"))
        .isLessThan(second.indexOf("<praetorium recent=\"true\" viewer=\"legatus\">"));
    assertThat(injected(second))
        .extracting(PraetoriumXml.Entry::text)
        .containsExactly("@vorenus review this code", "vorenus answer 1");
    assertThat(hasNotice(second)).isFalse();
    assertThat(TokenEstimator.of(second.substring(second.indexOf("<praetorium"))))
        .isLessThanOrEqualTo(LegatusSettings.DEFAULT_DIGEST_MAX_TOKENS);
    String third = turns.get(2).message();
    assertThat(third).doesNotContain("<praetorium");
    long exchangeCarried =
        turns.stream()
            .flatMap(t -> injected(t.message()).stream())
            .filter(e -> e.text().equals("vorenus answer 1"))
            .count();
    assertThat(exchangeCarried).isEqualTo(1);
  }

  @Test
  void theLegatusDigestKeepsTheNewestWithinDigestMaxTokensAndCanBeOff() {
    legatus = new LegatusSettings(true, 150);
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handle("hello", DispatchListener.NONE);
    for (int i = 0; i < 12; i++) {
      log().append(NewMessage.of("caesar", Audience.of("pullo"), "note " + i));
    }
    engine.handle("again", DispatchListener.NONE);

    String second = backend.turnsOf("legatus").get(1).message();
    String digest = second.substring(second.indexOf("<praetorium"), second.lastIndexOf("\n\n"));
    assertThat(TokenEstimator.of(digest)).isLessThanOrEqualTo(150);
    List<PraetoriumXml.Entry> carried = injected(second);
    assertThat(carried).isNotEmpty().hasSizeLessThan(12);
    assertThat(carried.get(carried.size() - 1).text()).isEqualTo("note 11");
    assertThat(digest)
        .endsWith(
            (12 - carried.size())
                + " earlier messages since your last turn left out; get_history has them.");

    legatus = LegatusSettings.withoutDigest();
    ScriptedBackend quiet = ScriptedBackend.forgetful();
    SessionEngine off = engine(quiet);
    off.handle("hello", DispatchListener.NONE);
    log().append(NewMessage.of("caesar", Audience.of("pullo"), "unseen"));
    off.handle("again", DispatchListener.NONE);
    assertThat(quiet.turnsOf("legatus").get(1).message()).doesNotContain("<praetorium");
  }

  @Test
  void aRosterChangeRebuildsTheLegatusButNoCenturio() throws Exception {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handle("hello", DispatchListener.NONE);
    engine.handle("@vorenus hello", DispatchListener.NONE);
    writePrompt("brutus", "description: Code review expert", "You review code.");
    engine.handle("hello again", DispatchListener.NONE);
    engine.handle("@vorenus hello again", DispatchListener.NONE);

    assertThat(backend.opened)
        .extracting(SessionSpec::owner)
        .containsExactly("legatus", "vorenus", "legatus");
    assertThat(backend.opened.get(2).systemPrompt())
        .contains("<centurio name=\"brutus\">Code review expert</centurio>");
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.ROSTER_CHANGED, 1L);
    assertThat(hasNotice(backend.turnsOf("legatus").get(1).message())).isTrue();
  }

  // ------------------------------------------------------------------ rebuild triggers

  @Test
  void aChangedPromptFileRebuildsTheSessionWithBootstrapAndNotice() throws Exception {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handle("@vorenus one", DispatchListener.NONE);
    engine.handle("@vorenus two", DispatchListener.NONE);
    writePrompt("vorenus", "description: Analyst", "You are a new Vorenus.");
    engine.handle("@vorenus three", DispatchListener.NONE);

    assertThat(backend.opened).extracting(SessionSpec::owner).containsExactly("vorenus", "vorenus");
    assertThat(backend.opened.get(1).systemPrompt()).contains("You are a new Vorenus.");
    String third = backend.turnsOf("vorenus").get(2).message();
    assertThat(injected(third))
        .extracting(PraetoriumXml.Entry::text)
        .containsExactly("@vorenus one", "vorenus answer 1", "@vorenus two", "vorenus answer 2");
    assertThat(hasNotice(third)).isTrue();
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.PROMPT_CHANGED, 1L);
    assertThat(sessions().find("vorenus").orElseThrow().rebuilds()).isEqualTo(1);
  }

  @Test
  void anAgentNamingItsOwnBackEndTalksToItAndSwitchingBackRebuilds() throws Exception {
    ScriptedBackend main = ScriptedBackend.forgetful();
    ScriptedBackend ollama = ScriptedBackend.forgetful();
    ollama.kind = "ollama";
    SessionEngine engine =
        SessionEngine.builder()
            .messageLog(log())
            .store(sessions())
            .agents(new AgentDirectory(workspace.castra()))
            .backend(main)
            .settings(settings)
            .clock(clock)
            .turnListener(TurnListener.NONE)
            .backendsByKind(
                kind -> {
                  assertThat(kind).isEqualTo("ollama");
                  return ollama;
                })
            .build();
    engines.add(engine);
    writePrompt("vorenus", "description: Analyst\nbackend: ollama", "You analyse.");

    engine.handle("@vorenus one", DispatchListener.NONE);
    engine.handle("@pullo two", DispatchListener.NONE);
    assertThat(ollama.opened).extracting(SessionSpec::owner).containsExactly("vorenus");
    assertThat(main.opened).extracting(SessionSpec::owner).containsExactly("pullo");
    assertThat(sessions().find("vorenus").orElseThrow().backend()).isEqualTo("ollama");

    writePrompt("vorenus", "description: Analyst", "You analyse.");
    engine.handle("@vorenus three", DispatchListener.NONE);
    assertThat(main.opened).extracting(SessionSpec::owner).containsExactly("pullo", "vorenus");
    assertThat(hasNotice(main.turnsOf("vorenus").get(0).message())).isTrue();
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.BACKEND_CHANGED, 1L);
  }

  @Test
  void passingTheInputTokenLimitRebuildsBeforeTheNextDispatch() throws Exception {
    writePrompt("vorenus", "description: Analyst\nmax_input_tokens: 25000", "You analyse.");
    ScriptedBackend backend = ScriptedBackend.forgetful();
    backend.inputTokensPerTurn = 10_000;
    SessionEngine engine = engine(backend);
    engine.handle("@vorenus one", DispatchListener.NONE); // 10k
    engine.handle("@vorenus two", DispatchListener.NONE); // 20k
    engine.handle("@vorenus three", DispatchListener.NONE); // 30k: over the limit after this turn
    assertThat(backend.opened).hasSize(1);
    assertThat(sessions().find("vorenus").orElseThrow().inputTokens()).isEqualTo(30_000);

    engine.handle("@vorenus four", DispatchListener.NONE);
    assertThat(backend.opened).hasSize(2);
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.TOKEN_LIMIT, 1L);
    assertThat(sessions().find("vorenus").orElseThrow().inputTokens()).isEqualTo(10_000);
  }

  @Test
  void anIdleSessionIsReapedAndTheNextRequestStartsFreshWithNotice() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handle("@vorenus one", DispatchListener.NONE);

    clock.advance(Duration.ofMinutes(30));
    assertThat(engine.reapIdle()).isZero(); // exactly the timeout is not yet idle
    clock.advance(Duration.ofSeconds(1));
    assertThat(engine.reapIdle()).isEqualTo(1);
    SessionRecord closed = sessions().find("vorenus").orElseThrow();
    assertThat(closed.active()).isFalse();
    assertThat(closed.closeReason()).isEqualTo("idle timeout");

    engine.handle("@vorenus two", DispatchListener.NONE);
    assertThat(backend.opened).hasSize(2);
    String second = backend.turnsOf("vorenus").get(1).message();
    assertThat(injected(second))
        .extracting(PraetoriumXml.Entry::text)
        .containsExactly("@vorenus one", "vorenus answer 1");
    assertThat(hasNotice(second)).isTrue();
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.IDLE, 1L);
  }

  @Test
  void idlenessIsAlsoCaughtAtDispatchWhenTheReaperHasNotRun() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handle("@vorenus one", DispatchListener.NONE);
    clock.advance(Duration.ofMinutes(31));
    engine.handle("@vorenus two", DispatchListener.NONE);
    assertThat(backend.opened).hasSize(2);
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.IDLE, 1L);
  }

  @Test
  void resetClosesOneSessionOrAllAndRefusesAnUnknownName() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handle("@vorenus @pullo one", DispatchListener.NONE);

    assertThat(engine.reset("vorenus")).isTrue();
    assertThat(engine.reset("vorenus")).isFalse();
    assertThat(sessions().find("vorenus").orElseThrow().closeReason()).isEqualTo("reset");
    assertThat(sessions().find("pullo").orElseThrow().active()).isTrue();
    assertThatThrownBy(() -> engine.reset("brutus"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Known agents: legatus, pullo, vorenus");

    engine.handle("@vorenus two", DispatchListener.NONE);
    assertThat(hasNotice(backend.turnsOf("vorenus").get(1).message())).isTrue();
    assertThat(engine.resetAll().closed()).containsExactly("pullo", "vorenus");
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.RESET, 3L);
  }

  /** A back-end whose turns of vorenus hold until {@code release} opens, saying when they start. */
  private static ScriptedBackend holding(CountDownLatch started, CountDownLatch release) {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    backend.duringTurn =
        turn -> {
          if (turn.message().contains("hold")) {
            started.countDown();
            try {
              release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    return backend;
  }

  /** Starts vorenus's turn "hold on" on {@code engine} and waits until it holds. */
  private static java.util.concurrent.CompletableFuture<Outcome> heldTurn(
      SessionEngine engine, CountDownLatch started) throws InterruptedException {
    var turn = new java.util.concurrent.CompletableFuture<Outcome>();
    Thread.ofVirtual()
        .start(() -> turn.complete(engine.handle("@vorenus hold on", DispatchListener.NONE)));
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    return turn;
  }

  @Test
  void aResetFromAnotherProcessWaitsForTheTurnThereAndTheTurnsEndDoesNotUndoIt() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    SessionEngine running = engine(holding(started, release));
    running.handle("@vorenus first", DispatchListener.NONE);
    SessionEngine other = engine(ScriptedBackend.forgetful(), openStore(dir, clock));
    var turn = heldTurn(running, started);

    var reset = new java.util.concurrent.CompletableFuture<Boolean>();
    Thread.ofVirtual().start(() -> reset.complete(other.reset("vorenus")));
    Thread.sleep(300); // the reset waits for the turn in the other process
    assertThat(reset).isNotDone();
    release.countDown();

    assertThat(turn.get(10, TimeUnit.SECONDS).ok()).isTrue();
    assertThat(reset.get(10, TimeUnit.SECONDS)).isTrue();
    SessionRecord after = sessions().find("vorenus").orElseThrow();
    assertThat(after.active()).isFalse();
    assertThat(after.closeReason()).isEqualTo("reset");
  }

  @Test
  void anEditWhoseLeaseATurnTookBeforeItsWriteLandedWritesNothing() {
    SessionEngine engine = engine(ScriptedBackend.forgetful());
    assertThat(engine.handle("@vorenus @pullo first", DispatchListener.NONE).ok()).isTrue();
    SessionRecord before = sessions().find("vorenus").orElseThrow();
    SessionRecord pullos = sessions().find("pullo").orElseThrow();

    java.util.function.Consumer<RecordWriter> stalledPastItsLease =
        writer -> {
          // The database held this edit for longer than its lease, and another node's turn took
          // the lease meanwhile.
          java.time.Instant later = clock.instant().plus(Duration.ofHours(1));
          assertThat(sessions().tryLease("vorenus", "node-b", later, Duration.ofMinutes(5)))
              .isTrue();
          writer.save(before.closed("reset"));
        };
    assertThatThrownBy(() -> editVorenus(engine, stalledPastItsLease))
        .isInstanceOf(SessionBusyException.class)
        .hasMessageContaining("[sessions] lease_ttl_seconds")
        .hasMessageContaining("the session record was not changed");
    assertThat(sessions().find("vorenus")).contains(before);

    sessions().releaseLease("vorenus", "node-b");
    assertThatThrownBy(() -> editVorenus(engine, writer -> writer.save(pullos.closed("reset"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an edit of vorenus's session may not write pullo's");
  }

  private static void editVorenus(
      SessionEngine engine, java.util.function.Consumer<RecordWriter> edit) {
    engine
        .edits()
        .whileNoTurnRuns(
            "vorenus",
            writer -> {
              edit.accept(writer);
              return null;
            });
  }

  @Test
  void anEditOfASessionBusyPastTheLockWaitIsRefusedAndChangesNothing() throws Exception {
    settings = settings.withLockWait(Duration.ofMillis(200));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    SessionEngine engine = engine(holding(started, release));
    engine.handle("@vorenus first", DispatchListener.NONE);
    var turn = heldTurn(engine, started);
    try {
      assertThatThrownBy(() -> engine.reset("vorenus"))
          .isInstanceOf(SessionBusyException.class)
          .hasMessage(
              "vorenus's session is busy: a turn of it on this Legio node still ran after 0 s"
                  + " ([sessions] lock_wait_seconds), so nothing was changed. Try again once"
                  + " vorenus has answered.");
      java.util.concurrent.atomic.AtomicBoolean edited =
          new java.util.concurrent.atomic.AtomicBoolean();
      SessionEngine other = engine(ScriptedBackend.forgetful(), openStore(dir, clock));
      assertThatThrownBy(
              () -> other.edits().whileNoTurnRuns("vorenus", writer -> edited.getAndSet(true)))
          .isInstanceOf(SessionBusyException.class)
          .hasMessageContaining("a turn or an edit of it, on this Legio node or another,");
      assertThat(edited).isFalse();
      assertThat(other.resetAll().busy()).containsExactly("vorenus");
    } finally {
      release.countDown();
    }
    assertThat(turn.get(10, TimeUnit.SECONDS).ok()).isTrue();
    assertThat(sessions().find("vorenus").orElseThrow().active()).isTrue();
    // The queue goes on after the places given up.
    assertThat(engine.handle("@vorenus again", DispatchListener.NONE).ok()).isTrue();
    assertThat(engine.reset("vorenus")).isTrue();
  }

  @Test
  void theLegatusResettingAllGoesPastABusyCenturioAndSaysSo() throws Exception {
    settings = settings.withLockWait(Duration.ofMillis(200));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    SessionEngine engine = engine(holding(started, release));
    engine.handle("@pullo first", DispatchListener.NONE);
    var turn = heldTurn(engine, started);
    dev.legio.tools.ToolResult result;
    try {
      result =
          new dev.legio.tools.Toolbox("legatus", LegatusTools.definitions(this::log, () -> engine))
              .call("reset_session", "{\"name\": \"all\"}");
    } finally {
      release.countDown();
    }
    assertThat(result.text())
        .isEqualTo(
            "Reset: pullo. Busy with a task, so not reset: vorenus; reset them once they have"
                + " answered.");
    assertThat(turn.get(10, TimeUnit.SECONDS).ok()).isTrue();
    assertThat(sessions().find("pullo").orElseThrow().closeReason()).isEqualTo("reset");
  }

  @Test
  void aRequestBehindATurnLongerThanTheLockWaitIsAnsweredBusyAtTheWaitNotAfterTheTurn()
      throws Exception {
    settings = settings.withLockWait(Duration.ofMillis(200));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    SessionEngine engine = engine(holding(started, release));
    var first = heldTurn(engine, started);
    Outcome second;
    try {
      // Answered while the first turn still runs (it holds for up to 30 s).
      second =
          java.util.concurrent.CompletableFuture.supplyAsync(
                  () -> engine.handle("@vorenus second", DispatchListener.NONE))
              .get(10, TimeUnit.SECONDS);
    } finally {
      release.countDown();
    }
    assertThat(second.ok()).isFalse();
    assertThat(second.replies().get(0).text()).contains("Busy").contains("busy for 0 s");
    assertThat(first.get(10, TimeUnit.SECONDS).ok()).isTrue();
    assertThat(engine.handle("@vorenus third", DispatchListener.NONE).ok()).isTrue();
  }

  @Test
  void anEditWaitsUntilTheTurnListenerHeardOfTheTurnsBeforeIt() throws Exception {
    CountDownLatch hold = new CountDownLatch(1);
    List<String> heard = java.util.Collections.synchronizedList(new ArrayList<>());
    TurnListener slow =
        turn -> {
          try {
            hold.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          heard.add(turn.owner()); // in Legio: the transcript is written
        };
    SessionEngine engine = engineHearing(slow);
    assertThat(engine.handle("@vorenus one", DispatchListener.NONE).ok()).isTrue();

    var edit = new java.util.concurrent.CompletableFuture<Integer>();
    Thread.ofVirtual()
        .start(
            () -> edit.complete(engine.edits().whileNoTurnRuns("vorenus", writer -> heard.size())));
    Thread.sleep(200);
    assertThat(edit).as("the edit waits for the listener").isNotDone();
    hold.countDown();
    assertThat(edit.get(10, TimeUnit.SECONDS)).isEqualTo(1);
  }

  @Test
  void anEditArrivingWhileARequestIsLoggedNeverTakesAwayTheLeaseTheRequestTook() throws Exception {
    // The store holds the request between its logging (with the lease) and its place in the
    // queue: the moment an edit must not come in between.
    CountDownLatch logged = new CountDownLatch(1);
    CountDownLatch go = new CountDownLatch(1);
    SessionStore real = sessions();
    SessionStore holding =
        (SessionStore)
            java.lang.reflect.Proxy.newProxyInstance(
                SessionStore.class.getClassLoader(),
                new Class<?>[] {SessionStore.class},
                (proxy, method, args) -> {
                  Object result;
                  try {
                    result = method.invoke(real, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                  if (method.getName().equals("appendAndTryLease") && logged.getCount() > 0) {
                    logged.countDown();
                    go.await(10, TimeUnit.SECONDS);
                  }
                  return result;
                });
    SessionEngine engine =
        SessionEngine.builder()
            .messageLog(log())
            .store(holding)
            .agents(new AgentDirectory(workspace.castra()))
            .backend(ScriptedBackend.forgetful())
            .settings(settings)
            .clock(clock)
            .build();
    engines.add(engine);
    var turn = new java.util.concurrent.CompletableFuture<Outcome>();
    Thread.ofVirtual()
        .start(() -> turn.complete(engine.handle("@vorenus scout", DispatchListener.NONE)));
    assertThat(logged.await(10, TimeUnit.SECONDS)).isTrue();

    var reset = new java.util.concurrent.CompletableFuture<Boolean>();
    Thread.ofVirtual().start(() -> reset.complete(engine.reset("vorenus")));
    Thread.sleep(300); // time enough for a reset that does not wait for the request
    go.countDown();

    Outcome outcome = turn.get(10, TimeUnit.SECONDS);
    assertThat(outcome.ok()).as(outcome.replies().get(0).text()).isTrue();
    assertThat(reset.get(10, TimeUnit.SECONDS)).as("the reset came after the turn").isTrue();
    assertThat(real.find("vorenus").orElseThrow().closeReason()).isEqualTo("reset");
  }

  @Test
  void editsOfOneOwnerRunOneAfterAnother() throws Exception {
    SessionEngine engine = engine(ScriptedBackend.forgetful());
    SessionEngine other = engine(ScriptedBackend.forgetful(), openStore(dir, clock));
    java.util.concurrent.atomic.AtomicInteger inside =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger most =
        new java.util.concurrent.atomic.AtomicInteger();
    List<Thread> editors = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      SessionEngine by = i % 2 == 0 ? engine : other;
      editors.add(
          Thread.ofVirtual()
              .start(
                  () ->
                      by.edits()
                          .whileNoTurnRuns(
                              "vorenus",
                              writer -> {
                                most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                                try {
                                  Thread.sleep(60);
                                } catch (InterruptedException e) {
                                  Thread.currentThread().interrupt();
                                }
                                return inside.decrementAndGet();
                              })));
    }
    for (Thread t : editors) {
      t.join(20_000);
    }
    assertThat(most.get()).isEqualTo(1);
  }

  // ------------------------------------------------------------------ persistence and restarts

  @Test
  void theSessionRecordKeepsTokensMessagesTheLastInjectedSequenceAndExpiry() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    backend.inputTokensPerTurn = 1234;
    SessionEngine engine = engine(backend);
    engine.handle("@vorenus one", DispatchListener.NONE);
    clock.advance(Duration.ofMinutes(5));
    Outcome second = engine.handle("@vorenus two", DispatchListener.NONE);

    SessionRecord r = sessions().find("vorenus").orElseThrow();
    assertThat(r.backend()).isEqualTo("scripted");
    assertThat(r.inputTokens()).isEqualTo(2468);
    assertThat(r.outputTokens()).isEqualTo(10);
    assertThat(r.messageCount()).isEqualTo(2);
    assertThat(r.lastInjectedSequence()).isEqualTo(second.request().sequence());
    assertThat(r.createdAt()).isEqualTo(clock.instant().minus(Duration.ofMinutes(5)));
    assertThat(r.lastActiveAt()).isEqualTo(clock.instant());
    assertThat(r.expiresAt()).isEqualTo(clock.instant().plus(Duration.ofDays(30)));
    assertThat(r.promptHash()).hasSize(64);
    assertThat(r.active()).isTrue();
  }

  @Test
  void theSessionRecordHoldsTheLastReportedContextUseAndARebuildClearsIt() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    java.util.concurrent.atomic.AtomicInteger turn =
        new java.util.concurrent.atomic.AtomicInteger();
    // Turns 1 and 2 report figures, turn 3 none (the back-end could not tell).
    backend.context =
        t -> {
          int n = turn.incrementAndGet();
          return n == 1
              ? ContextUse.of(40_000, 200_000)
              : n == 2 ? new ContextUse(170_000, 200_000, 3, true) : null;
        };
    SessionEngine engine = engine(backend);

    engine.handle("@vorenus one", DispatchListener.NONE);
    assertThat(sessions().find("vorenus").orElseThrow().context())
        .isEqualTo(ContextUse.of(40_000, 200_000));
    engine.handle("@vorenus two", DispatchListener.NONE);
    assertThat(sessions().find("vorenus").orElseThrow().context())
        .isEqualTo(new ContextUse(170_000, 200_000, 3, true));
    engine.handle("@vorenus three", DispatchListener.NONE);
    SessionRecord kept = sessions().find("vorenus").orElseThrow();
    assertThat(kept.messageCount()).isEqualTo(3);
    assertThat(kept.context()).isEqualTo(new ContextUse(170_000, 200_000, 3, true));
    assertThat(engine.status())
        .filteredOn(s -> s.owner().equals("vorenus"))
        .extracting(s -> s.record().context())
        .containsExactly(new ContextUse(170_000, 200_000, 3, true));

    // A rebuilt session starts with no figures, until its first turn that reports some.
    assertThat(engine.reset("vorenus")).isTrue();
    engine.handle("@vorenus four", DispatchListener.NONE);
    SessionRecord rebuilt = sessions().find("vorenus").orElseThrow();
    assertThat(rebuilt.sessionId()).isNotEqualTo(kept.sessionId());
    assertThat(rebuilt.messageCount()).isEqualTo(1);
    assertThat(rebuilt.context()).isNull();

    // The legatus sees how full each centurio's active session is.
    engine.handle("@pullo one", DispatchListener.NONE); // turn 5: no figures
    sessions().save(rebuilt.withContext(ContextUse.of(50_000, 200_000)));
    engine.handle("how are they?", DispatchListener.NONE);
    assertThat(backend.turnsOf("legatus").get(0).message())
        .contains("<centurio name=\"vorenus\" status=\"idle\" context=\"25%\"/>")
        .contains("<centurio name=\"pullo\" status=\"idle\"/>");
  }

  @Test
  void afterARestartABackEndThatCannotResumeGetsTheBootstrapAndNotice() {
    SessionEngine before = engine(ScriptedBackend.forgetful());
    before.handle("@vorenus one", DispatchListener.NONE);
    before.handle("hello legatus", DispatchListener.NONE);
    before.close();

    LegioStore reopened = openStore(dir, clock);
    try {
      ScriptedBackend after = ScriptedBackend.forgetful();
      SessionEngine engine = engine(after, reopened);
      engine.handle("@vorenus two", DispatchListener.NONE);
      engine.handle("hello again", DispatchListener.NONE);

      // The bootstrap holds vorenus's own earlier reply (addressed to caesar): it sees what it
      // said.
      String vorenus = after.turnsOf("vorenus").get(0).message();
      assertThat(injected(vorenus))
          .extracting(PraetoriumXml.Entry::text)
          .containsExactly("@vorenus one", "vorenus answer 1");
      assertThat(hasNotice(vorenus)).isTrue();
      String legatus = after.turnsOf("legatus").get(0).message();
      assertThat(injected(legatus))
          .extracting(PraetoriumXml.Entry::text)
          .contains("hello legatus", "legatus answer 1", "@vorenus two", "vorenus answer 1");
      assertThat(hasNotice(legatus)).isTrue();
      assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.RESTART, 2L);
    } finally {
      engines.forEach(SessionEngine::close);
      engines.clear();
      reopened.close();
    }
  }

  @Test
  void afterARestartABackEndThatCanResumeContinuesWithoutBootstrapOrNotice() {
    ScriptedBackend.Conversations kept = new ScriptedBackend.Conversations();
    SessionEngine before = engine(ScriptedBackend.resuming(kept));
    before.handle("@vorenus one", DispatchListener.NONE);
    before.handle("hello legatus", DispatchListener.NONE);
    String vorenusId = sessions().find("vorenus").orElseThrow().backendSessionId();
    before.close();
    Message meanwhile = log().append(NewMessage.of("pullo", Audience.of("vorenus"), "meanwhile"));

    LegioStore reopened = openStore(dir, clock);
    try {
      ScriptedBackend after = ScriptedBackend.resuming(kept);
      SessionEngine engine = engine(after, reopened);
      engine.handle("@vorenus two", DispatchListener.NONE);
      engine.handle("hello again", DispatchListener.NONE);

      assertThat(after.opened).extracting(SessionSpec::resumeId).contains(vorenusId);
      ScriptedBackend.Turn vorenus = after.turnsOf("vorenus").get(0);
      assertThat(vorenus.sessionId()).isEqualTo(vorenusId);
      assertThat(injected(vorenus.message()))
          .extracting(PraetoriumXml.Entry::id)
          .containsExactly(meanwhile.id());
      assertThat(hasNotice(vorenus.message())).isFalse();
      String legatusTurn = after.turnsOf("legatus").get(0).message();
      // No bootstrap: only the digest of what it missed (caesar with vorenus, pullo's note).
      assertThat(injected(legatusTurn))
          .extracting(PraetoriumXml.Entry::text)
          .containsExactly("meanwhile", "@vorenus two", "vorenus answer 2");
      assertThat(hasNotice(legatusTurn)).isFalse();
      assertThat(engine.rebuildCounts().values()).allMatch(n -> n == 0);
      assertThat(reopened.sessions().find("vorenus").orElseThrow().messageCount()).isEqualTo(2);
    } finally {
      engines.forEach(SessionEngine::close);
      engines.clear();
      reopened.close();
    }
  }

  @Test
  void turnsAlternatingBetweenTwoProcessesEachResumeWhatTheOtherContinued() {
    // Two nodes on one store, their back-ends keeping conversations where both reach them (an
    // HTTP back-end's, in the database).
    ScriptedBackend.Conversations kept = new ScriptedBackend.Conversations();
    ScriptedBackend onA = ScriptedBackend.resuming(kept);
    ScriptedBackend onB = ScriptedBackend.resuming(kept);
    SessionEngine a = engine(onA);
    SessionEngine b = engine(onB, openStore(dir, clock));

    assertThat(a.handle("@vorenus one", DispatchListener.NONE).ok()).isTrue();
    assertThat(b.handle("@vorenus two", DispatchListener.NONE).ok()).isTrue();
    Message three = log().append(NewMessage.of("pullo", Audience.of("vorenus"), "three"));
    assertThat(a.handle("@vorenus four", DispatchListener.NONE).ok()).isTrue();

    String conversation = sessions().find("vorenus").orElseThrow().backendSessionId();
    // a did not go on with its live session as if b had run nothing: it resumed the conversation.
    assertThat(onA.opened).extracting(SessionSpec::resumeId).containsExactly(null, conversation);
    ScriptedBackend.Turn four = onA.turnsOf("vorenus").get(1);
    assertThat(injected(four.message()))
        .extracting(PraetoriumXml.Entry::id)
        .as("only what came after b's turn")
        .containsExactly(three.id());
    assertThat(sessions().find("vorenus").orElseThrow().messageCount()).isEqualTo(3);
    assertThat(a.rebuildCounts().values()).allMatch(n -> n == 0);
  }

  @Test
  void resumingAConversationLegioHasNoRecordOfContinuesItWithoutBootstrap() {
    ScriptedBackend.Conversations kept = new ScriptedBackend.Conversations();
    String cliConversation = UUID.randomUUID().toString();
    kept.byId().put(cliConversation, new java.util.concurrent.CopyOnWriteArrayList<>());
    log().append(NewMessage.of("caesar", Audience.of("vorenus"), "long ago"));
    ScriptedBackend backend = ScriptedBackend.resuming(kept);
    SessionEngine engine = engine(backend);

    SessionEngine.Resumed resumed = engine.resume(cliConversation, "vorenus");
    Message meanwhile = log().append(NewMessage.of("pullo", Audience.of("vorenus"), "meanwhile"));
    engine.handle("@vorenus go on", DispatchListener.NONE);

    assertThat(resumed.known()).isFalse();
    assertThat(resumed.owner()).isEqualTo("vorenus");
    assertThat(resumed.sessionId().toString()).isEqualTo(cliConversation);
    ScriptedBackend.Turn turn = backend.turnsOf("vorenus").get(0);
    assertThat(turn.sessionId()).isEqualTo(cliConversation);
    assertThat(injected(turn.message()))
        .extracting(PraetoriumXml.Entry::id)
        .containsExactly(meanwhile.id());
    assertThat(hasNotice(turn.message())).isFalse();
    assertThat(engine.rebuildCounts().values()).allMatch(n -> n == 0);
  }

  @Test
  void resumingOnABackEndThatCannotResumeIsRefused() {
    SessionEngine engine = engine(ScriptedBackend.forgetful());
    assertThatThrownBy(() -> engine.resume(UUID.randomUUID().toString(), "vorenus"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot resume");
  }

  @Test
  void expiredRecordsAreDeletedByTheCleanup() {
    SessionEngine engine = engine(ScriptedBackend.forgetful());
    engine.handle("@vorenus one", DispatchListener.NONE);
    clock.advance(Duration.ofDays(10));
    engine.handle("@pullo one", DispatchListener.NONE);
    clock.advance(Duration.ofDays(20).plusSeconds(1));

    assertThat(sessions().deleteExpired(clock.instant())).isEqualTo(1);
    assertThat(sessions().find("vorenus")).isEmpty();
    assertThat(sessions().find("pullo")).isPresent();
  }

  // ------------------------------------------------------------------ channels

  @Test
  void aResetOfAChannelWithNoSessionIsRefusedAndOfAClosedOneIsNothingToDo() {
    SessionEngine engine = engine(ScriptedBackend.forgetful());
    engine.handleChannel("telegram:2", "hello", DispatchListener.NONE);

    assertThatThrownBy(() -> engine.reset("telegram:999"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("no session for channel telegram:999: it never wrote")
        .hasMessageContaining("legio status --channels all");
    assertThat(sessions().find("telegram:999")).isEmpty();
    assertThat(engine.reset("telegram:2")).isTrue();
    assertThat(engine.reset("telegram:2")).as("its row is left, closed").isFalse();
  }

  @Test
  void theStatusListsTheOpenChannelsAndCountsTheIdleAndClosedOnes() {
    SessionEngine engine = engine(ScriptedBackend.forgetful());
    engine.handleChannel("telegram:1", "seen yesterday", DispatchListener.NONE);
    engine.handleChannel("telegram:2", "reset since", DispatchListener.NONE);
    engine.reset("telegram:2");
    clock.advance(settings.channels().idleTimeout().plusMinutes(1));
    engine.handleChannel("telegram:3", "here now", DispatchListener.NONE);

    StatusReport open = engine.status(ChannelListing.DEFAULT);
    assertThat(open.agents()).extracting(SessionStatus::owner).contains("legatus", "vorenus");
    assertThat(open.channels().channels())
        .extracting(SessionStatus::owner)
        .containsExactly("telegram:3");
    assertThat(open.channels().all()).isEqualTo(3);
    assertThat(open.channels().open()).isEqualTo(1);

    StatusReport all = engine.status(new ChannelListing(ChannelListing.Scope.ALL, 10));
    assertThat(all.channels().channels())
        .extracting(SessionStatus::owner)
        .containsExactlyInAnyOrder("telegram:1", "telegram:2", "telegram:3");
  }

  @Test
  void eachChannelHasItsOwnSessionWithTheRoleOfItsSource() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    engine.handleChannel("telegram:123", "hi from telegram", DispatchListener.NONE);
    engine.handleChannel("viewer:main", "hi from the viewer", DispatchListener.NONE);
    Outcome second = engine.handleChannel("telegram:123", "again", DispatchListener.NONE);

    assertThat(backend.opened)
        .extracting(SessionSpec::owner)
        .containsExactly("telegram:123", "viewer:main");
    assertThat(backend.opened).extracting(SessionSpec::role).containsExactly("chat", "operator");
    Message reply = log().find(second.replies().get(0).messageId()).orElseThrow();
    assertThat(reply.sender()).isEqualTo("legatus");
    assertThat(reply.audience().names()).containsExactly("telegram:123");
    // The live session holds its own answers: the second turn carries nothing injected.
    assertThat(backend.turnsOf("telegram:123").get(1).message()).isEqualTo("again");
  }

  @Test
  void theLeastRecentlyActiveChannelSessionIsClosedAtTheLimit() {
    settings =
        settings.withChannels(
            new SessionSettings.Channels(
                2, Duration.ofMinutes(30), Duration.ofMinutes(5), 160_000, Map.of()));
    SessionEngine engine = engine(ScriptedBackend.forgetful());
    engine.handleChannel("telegram:1", "a", DispatchListener.NONE);
    engine.handleChannel("telegram:2", "b", DispatchListener.NONE);
    engine.handleChannel("telegram:1", "a again", DispatchListener.NONE);
    engine.handleChannel("telegram:3", "c", DispatchListener.NONE);

    waitUntil(() -> !sessions().find("telegram:2").orElseThrow().active());
    assertThat(sessions().find("telegram:2").orElseThrow().closeReason()).startsWith("evicted");
    assertThat(sessions().find("telegram:1").orElseThrow().active()).isTrue();
    assertThat(sessions().find("telegram:3").orElseThrow().active()).isTrue();
  }

  @Test
  void idleChannelSessionsAreClosedAndTheContextThresholdResetsOnTheNextMessage() {
    settings =
        settings.withChannels(
            new SessionSettings.Channels(
                100, Duration.ofMinutes(30), Duration.ofMinutes(5), 1_000, Map.of()));
    ScriptedBackend backend = ScriptedBackend.forgetful();
    backend.inputTokensPerTurn = 600;
    SessionEngine engine = engine(backend);
    engine.handleChannel("slack:C1", "one", DispatchListener.NONE);
    engine.handleChannel("slack:C1", "two", DispatchListener.NONE); // 1200 > 1000
    assertThat(backend.opened).hasSize(1);
    engine.handleChannel("slack:C1", "three", DispatchListener.NONE);
    assertThat(backend.opened).hasSize(2);
    assertThat(engine.rebuildCounts()).containsEntry(RebuildReason.TOKEN_LIMIT, 1L);

    clock.advance(Duration.ofMinutes(31));
    assertThat(engine.reapIdle()).isZero(); // channels follow their own cleanup
    assertThat(engine.cleanupChannels()).isEqualTo(1);
    assertThat(sessions().find("slack:C1").orElseThrow().closeReason()).isEqualTo("idle timeout");
  }

  @Test
  void aSessionLeasedByAnotherProcessGetsABusyAnswerAfterTheBoundedWait() {
    settings = settings.withLockWait(Duration.ZERO);
    SessionEngine engine = engine(ScriptedBackend.forgetful());
    assertThat(
            sessions()
                .tryLease("telegram:9", "another-process", clock.instant(), Duration.ofMinutes(15)))
        .isTrue();

    Outcome outcome = engine.handleChannel("telegram:9", "are you there?", DispatchListener.NONE);
    assertThat(outcome.ok()).isFalse();
    assertThat(outcome.replies().get(0).text()).contains("Busy").contains("another Legio process");

    // A lease held past its time (a process that died) is taken over.
    clock.advance(Duration.ofMinutes(16));
    assertThat(engine.handleChannel("telegram:9", "now?", DispatchListener.NONE).ok()).isTrue();
  }

  @Test
  void anAgentWorkingInAnotherProcessShowsAsWorkingInStatusAndToTheLegatus() {
    ScriptedBackend backend = ScriptedBackend.forgetful();
    SessionEngine engine = engine(backend);
    assertThat(
            sessions()
                .tryLease("vorenus", "another-process", clock.instant(), Duration.ofMinutes(15)))
        .isTrue();

    assertThat(engine.status())
        .filteredOn(s -> s.owner().equals("vorenus") || s.owner().equals("pullo"))
        .extracting(SessionStatus::owner, SessionStatus::activity)
        .containsExactlyInAnyOrder(tuple("vorenus", "working"), tuple("pullo", "idle"));
    engine.handle("who is busy?", DispatchListener.NONE);
    assertThat(backend.turnsOf("legatus").get(0).message())
        .contains("<centurio name=\"vorenus\" status=\"working\"/>")
        .contains("<centurio name=\"pullo\" status=\"idle\"/>");

    // Once that lease runs out (the other process died), the agent is idle again.
    clock.advance(Duration.ofMinutes(16));
    assertThat(engine.status())
        .filteredOn(s -> s.owner().equals("vorenus"))
        .extracting(SessionStatus::activity)
        .containsExactly("idle");
  }

  @Test
  void theTurnListenerHearsEveryTurnInOrderOffTheTurnsPathAndCloseWaitsForIt() throws Exception {
    java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
    List<String> heard = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    TurnListener slow =
        turn -> {
          try {
            gate.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          heard.add(turn.owner() + ": " + turn.reply());
        };
    SessionEngine engine = engineHearing(slow);

    // The turns return while the listener is still busy with the first.
    assertThat(engine.handle("@vorenus one", DispatchListener.NONE).ok()).isTrue();
    assertThat(engine.handle("@vorenus two", DispatchListener.NONE).ok()).isTrue();
    assertThat(heard).isEmpty();

    gate.countDown();
    engine.close();
    assertThat(heard).containsExactly("vorenus: vorenus answer 1", "vorenus: vorenus answer 2");
  }

  // ------------------------------------------------------------------ shutdown

  @Test
  void shutdownInterruptsADispatchThatOutlivesTheGraceAndRecordsIt() throws Exception {
    settings =
        new SessionSettings(
            settings.historyWindow(),
            settings.maxInputTokens(),
            settings.idleTimeout(),
            settings.reaperInterval(),
            settings.leaseDuration(),
            settings.lockWait(),
            settings.ttlByBackend(),
            settings.cleanupAt(),
            Duration.ofMillis(100),
            settings.channels(),
            settings.condenseAfterTokens(),
            settings.resumeAfterIdle());
    ScriptedBackend backend = ScriptedBackend.forgetful();
    CountDownLatch started = new CountDownLatch(1);
    backend.duringTurn =
        turn -> {
          started.countDown();
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException e) {
            throw new dev.legio.backend.BackendException("interrupted", e);
          }
        };
    SessionEngine engine = engine(backend);
    var result = new java.util.concurrent.CompletableFuture<Outcome>();
    Thread.ofVirtual()
        .start(() -> result.complete(engine.handle("@vorenus long job", DispatchListener.NONE)));
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

    engine.close();
    Outcome outcome = result.get(10, TimeUnit.SECONDS);
    Reply reply = outcome.replies().get(0);
    assertThat(reply.failed()).isTrue();
    assertThat(reply.text()).contains("interrupted");
    assertThat(log().find(reply.messageId()).orElseThrow().replyTo())
        .isEqualTo(outcome.request().id());
    assertThatThrownBy(() -> engine.handle("more", DispatchListener.NONE))
        .hasMessageContaining("shutting down");
  }

  static void waitUntil(java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 10 s");
      }
      Thread.onSpinWait();
    }
  }
}
