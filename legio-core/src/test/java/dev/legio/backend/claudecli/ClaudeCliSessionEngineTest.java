package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import dev.legio.config.SessionSettings;
import dev.legio.log.PraetoriumXml;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.session.RebuildReason;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionRecord;
import dev.legio.store.LegioStore;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.HangingTurnTimeout;
import dev.legio.testing.RealClaudeCli;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Legio's session engine on a real SQLite store, driving the real Claude Code CLI, which talks to a
 * {@link FakeMessagesApi}. "Restart" closes the engine, the back-end and the store and opens new
 * ones on the same files.
 */
class ClaudeCliSessionEngineTest {
  @TempDir Path dir;
  @TempDir Path home;
  private FakeMessagesApi api;
  private Workspace workspace;
  private LegioStore store;
  private ClaudeCliBackend backend;
  private SessionEngine engine;

  @BeforeEach
  void setUp() throws Exception {
    RealClaudeCli.executable();
    api = FakeMessagesApi.start();
    // Answers name the agent whose system prompt the request carries.
    api.fallback(
        r ->
            Reply.text(
                    (r.systemText().contains("You are vorenus") ? "vorenus" : "pullo")
                        + " answers turn "
                        + r.messages().size())
                .withUsage(100, 10, 0, 0));
    workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    writePrompt("vorenus", "You are vorenus, the scout.");
    writePrompt("pullo", "You are pullo, the soldier.");
  }

  @AfterEach
  void tearDown() {
    stopLegio();
    api.close();
  }

  private void startLegio(Mode mode, Duration turnTimeout) {
    store =
        LegioStore.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                workspace.castra().resolve("praetorium.db"), 1 << 20, false, 4, Clock.systemUTC()));
    backend =
        new ClaudeCliBackend(
            RealClaudeCli.options(home, dir, api, mode).withTurnTimeout(turnTimeout));
    engine =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(workspace.castra()))
            .backend(backend)
            .settings(SessionSettings.defaults())
            .clock(Clock.systemUTC())
            .turnListener(new dev.legio.transcript.TranscriptRecorder(legioTranscripts()))
            .build();
  }

  private dev.legio.transcript.FileTranscriptStore legioTranscripts() {
    return new dev.legio.transcript.FileTranscriptStore(
        workspace.castra().resolve("transcripts"), dir, Clock.systemUTC());
  }

  @Test
  void aRewoundSessionResumesTheCliFromARewrittenTranscriptWithoutTheRewoundTurns() {
    startLegio(Mode.PERSISTENT);
    say("@vorenus Scout the north road");
    say("@vorenus What did you find?");
    say("@vorenus And the bridge?");
    String sessionId = record("vorenus").sessionId().toString();
    String cliSession = record("vorenus").backendSessionId();
    stopLegio();

    LegioStore edits =
        LegioStore.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                workspace.castra().resolve("praetorium.db"), 1 << 20, false, 4, Clock.systemUTC()));
    dev.legio.transcript.SessionHistoryEditor.Result r;
    try {
      r =
          new dev.legio.transcript.SessionHistoryEditor(
                  edits.sessions(),
                  dev.legio.transcript.RewindJournal.beside(legioTranscripts()),
                  edits.conversations(),
                  new dev.legio.transcript.FileTranscriptStore(
                      home.resolve(".claude/projects"), dir, Clock.systemUTC()),
                  Clock.systemUTC())
              .rewind(sessionId, new dev.legio.transcript.SessionHistoryEditor.Point.LastTurns(1));
    } finally {
      edits.close();
    }
    assertThat(r.backendSessionId()).isNotNull().isNotEqualTo(cliSession);

    startLegio(Mode.PERSISTENT);
    assertThat(say("@vorenus Report").ok()).isTrue();
    List<FakeMessagesApi.Request> requests = requestsOf("vorenus");
    String last = conversation(requests.get(requests.size() - 1));
    assertThat(last)
        .contains("Scout the north road")
        .contains("What did you find?")
        .contains("Report")
        .doesNotContain("And the bridge?")
        .doesNotContain("<context_notice>");
    assertThat(record("vorenus").backendSessionId()).isEqualTo(r.backendSessionId());
  }

  @Test
  void aForkOnTheCliAndItsOriginDiverge() {
    startLegio(Mode.PER_TURN);
    say("@vorenus Scout the north road");
    String sessionId = record("vorenus").sessionId().toString();
    SessionEngine closed = engine;
    closed.close(); // the transcript recorder has written every turn once the engine is closed
    engine = null;
    dev.legio.transcript.SessionHistoryEditor.Result fork =
        new dev.legio.transcript.SessionHistoryEditor(
                store.sessions(),
                dev.legio.transcript.RewindJournal.beside(legioTranscripts()),
                store.conversations(),
                new dev.legio.transcript.FileTranscriptStore(
                    home.resolve(".claude/projects"), dir, Clock.systemUTC()),
                Clock.systemUTC())
            .withShapes(closed::shapeOf) // pullo's prompt: its next turn continues the fork
            .fork(sessionId, new dev.legio.transcript.SessionHistoryEditor.Point.End(), "pullo");
    stopLegio();
    startLegio(Mode.PER_TURN);
    engine.handle("@pullo Report from the fork", DispatchListener.NONE);
    engine.handle("@vorenus Onwards", DispatchListener.NONE);

    String forked = conversation(requestsOf("pullo").get(0));
    List<FakeMessagesApi.Request> origin = requestsOf("vorenus");
    String original = conversation(origin.get(origin.size() - 1));
    assertThat(forked)
        .contains("Scout the north road")
        .contains("Report from the fork")
        .doesNotContain("<context_notice>");
    assertThat(original)
        .contains("Scout the north road")
        .contains("Onwards")
        .doesNotContain("Report from the fork");
    assertThat(record("pullo").backendSessionId()).isEqualTo(fork.backendSessionId());
  }

  @Test
  void resumingAConversationTheCliWroteContinuesItWithoutBootstrap() {
    startLegio(Mode.PER_TURN);
    say("@vorenus Scout the north road");
    String cliSession = record("vorenus").backendSessionId();
    stopLegio();
    startLegio(Mode.PER_TURN);
    // Legio forgets the session: only the CLI's own transcript knows the conversation.
    store.sessions().delete("vorenus");
    say("@pullo hold the gate");

    dev.legio.session.SessionEngine.Resumed resumed = engine.resume(cliSession, "vorenus");
    assertThat(resumed.known()).isFalse();
    assertThat(say("@vorenus What did you find?").ok()).isTrue();

    List<FakeMessagesApi.Request> requests = requestsOf("vorenus");
    FakeMessagesApi.Request last = requests.get(requests.size() - 1);
    assertThat(conversation(last))
        .contains("Scout the north road")
        .contains("What did you find?")
        .doesNotContain("<praetorium")
        .doesNotContain("<context_notice>");
    assertThat(last.header("X-Claude-Code-Session-Id")).isEqualTo(cliSession);
  }

  private void startLegio(Mode mode) {
    startLegio(mode, Duration.ofSeconds(60));
  }

  private void stopLegio() {
    if (engine != null) {
      engine.close();
      engine = null;
    }
    if (backend != null) {
      backend.close();
      backend = null;
    }
    if (store != null) {
      store.close();
      store = null;
    }
  }

  private void writePrompt(String agent, String body) throws Exception {
    Path file = workspace.castra().resolve("centuriones/" + agent + "/prompt.md");
    Files.createDirectories(file.getParent());
    boolean existed = Files.exists(file);
    FileTime before = existed ? Files.getLastModifiedTime(file) : null;
    Files.writeString(file, "---\ndescription: " + agent + "\n---\n" + body + "\n");
    if (existed) {
      Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 2_000));
    }
  }

  private Outcome say(String text) {
    return engine.handle(text, DispatchListener.NONE);
  }

  private SessionRecord record(String owner) {
    return store.sessions().find(owner).orElseThrow();
  }

  private List<FakeMessagesApi.Request> requestsOf(String agent) {
    return api.scriptedRequests().stream()
        .filter(r -> r.systemText().contains("You are " + agent))
        .toList();
  }

  private static String conversation(FakeMessagesApi.Request r) {
    return String.join("\n", r.messageTexts());
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void turnsResumeTheCliConversationAcrossARestartOfLegio(Mode mode) {
    startLegio(mode);
    assertThat(say("@vorenus Scout the north road").ok()).isTrue();
    assertThat(say("@vorenus What did you find?").ok()).isTrue();
    String cliSession = record("vorenus").backendSessionId();
    assertThat(cliSession).isNotNull();

    stopLegio();
    startLegio(mode);
    Outcome third = say("@vorenus And the bridge?");

    assertThat(third.ok()).isTrue();
    assertThat(third.replies().get(0).text()).startsWith("vorenus answers");
    List<FakeMessagesApi.Request> requests = requestsOf("vorenus");
    assertThat(requests).hasSize(3);
    // the second turn carries the first; the third (after the restart) carries both
    assertThat(conversation(requests.get(1))).contains("Scout the north road");
    assertThat(conversation(requests.get(2)))
        .contains("Scout the north road")
        .contains("What did you find?")
        .contains("And the bridge?")
        // resumed, not rebuilt: no history bootstrap, no context notice
        .doesNotContain("<context_notice>");
    assertThat(conversation(requests.get(0))).doesNotContain("<praetorium");
    assertThat(record("vorenus").backendSessionId()).isEqualTo(cliSession);
    assertThat(record("vorenus").rebuilds()).isZero();
    assertThat(requests.get(2).header("X-Claude-Code-Session-Id")).isEqualTo(cliSession);
  }

  @Test
  void theTokenUsageLegioRecordsIsWhatTheApiSent() {
    api.enqueue(
        Reply.text("first").withUsage(1234, 56, 400, 30),
        Reply.text("second").withUsage(2000, 44, 1600, 5));
    startLegio(Mode.PERSISTENT);

    say("@vorenus one");
    say("@vorenus two");

    SessionRecord r = record("vorenus");
    assertThat(r.inputTokens()).isEqualTo((1234 + 400 + 30) + (2000 + 1600 + 5));
    assertThat(r.outputTokens()).isEqualTo(56 + 44);
  }

  @Test
  void aChangedPromptRebuildsTheSessionWithHistoryAndTheContextNotice() throws Exception {
    startLegio(Mode.PER_TURN);
    say("@vorenus Scout the north road");
    String before = record("vorenus").backendSessionId();

    writePrompt("vorenus", "You are vorenus, now a cavalry officer.");
    Outcome after = say("@vorenus Report");

    assertThat(after.ok()).isTrue();
    List<FakeMessagesApi.Request> requests = requestsOf("vorenus");
    FakeMessagesApi.Request rebuilt = requests.get(requests.size() - 1);
    assertThat(rebuilt.systemText()).contains("now a cavalry officer");
    // a new CLI conversation: only one user message, bootstrapped from the log
    assertThat(rebuilt.messages()).hasSize(1);
    assertThat(rebuilt.lastUserText())
        .contains("<praetorium")
        .contains("Scout the north road")
        .contains(PraetoriumXml.CONTEXT_NOTICE)
        .contains("Report");
    assertThat(record("vorenus").backendSessionId()).isNotEqualTo(before);
    assertThat(engine.rebuildCounts().get(RebuildReason.PROMPT_CHANGED)).isEqualTo(1);
  }

  @Test
  void aConversationTheCliLostStartsFreshFromTheLogWithTheContextNotice() throws Exception {
    startLegio(Mode.PERSISTENT);
    say("@vorenus Scout the north road");
    String lost = record("vorenus").backendSessionId();
    stopLegio();
    // The CLI's own transcripts vanish (another machine, a cleaned home folder, ...).
    try (Stream<Path> files = Files.walk(home.resolve(".claude"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
        Files.delete(f);
      }
    }

    startLegio(Mode.PERSISTENT);
    Outcome outcome = say("@vorenus What did you find?");

    assertThat(outcome.ok()).isTrue();
    FakeMessagesApi.Request fresh = requestsOf("vorenus").get(1);
    assertThat(fresh.messages()).hasSize(1);
    assertThat(fresh.lastUserText())
        .contains("<praetorium")
        .contains("Scout the north road")
        .contains(PraetoriumXml.CONTEXT_NOTICE)
        .contains("What did you find?");
    SessionRecord now = record("vorenus");
    assertThat(now.backendSessionId()).isNotEqualTo(lost);
    assertThat(now.rebuilds()).isEqualTo(1);
    assertThat(engine.rebuildCounts().get(RebuildReason.BACKEND_LOST)).isEqualTo(1);
  }

  @Test
  void aHangingAgentTimesOutWithAnErrorWhileTheOtherAnswers() {
    api.fallback(
        r ->
            r.systemText().contains("You are vorenus")
                ? Reply.hang()
                : Reply.text("pullo reporting").withUsage(10, 2, 0, 0));
    // pullo's process starts and answers under the time-out vorenus waits out: one tied to load.
    startLegio(Mode.PERSISTENT, HangingTurnTimeout.measure());

    Outcome outcome = say("@vorenus @pullo Status?");

    assertThat(outcome.replies()).hasSize(2);
    var vorenus = outcome.replies().stream().filter(r -> r.agent().equals("vorenus")).findFirst();
    var pullo = outcome.replies().stream().filter(r -> r.agent().equals("pullo")).findFirst();
    assertThat(vorenus.orElseThrow().failed()).isTrue();
    assertThat(vorenus.get().text()).isEqualTo("[vorenus] An error occurred during processing.");
    assertThat(pullo.orElseThrow().failed()).isFalse();
    assertThat(pullo.get().text()).isEqualTo("pullo reporting");
    assertThat(engine.status())
        .filteredOn(s -> s.owner().equals("vorenus"))
        .extracting(s -> s.activity())
        .containsExactly("error");
    // vorenus's process was stopped; pullo's persistent process lives on
    assertThat(backend.runningProcesses()).isEqualTo(1);
  }
}
