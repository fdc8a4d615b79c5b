package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import dev.legio.config.SessionSettings;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.session.DispatchListener;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionRecord;
import dev.legio.store.LegioStore;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.RealClaudeCli;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.TranscriptBriefWriter;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Condensing a long session of the real Claude Code CLI ({@code [sessions] condense_after_tokens}),
 * against a {@link FakeMessagesApi}: the brief is asked of the model (a one-question CLI process)
 * with the old conversation read from the CLI's own transcript, and the next turn runs in a new CLI
 * session that starts from it; a restart of Legio resumes that new session. Skipped where the CLI
 * cannot be had, failed under CI ({@link RealClaudeCli}).
 */
class ClaudeCliCondenseTest {
  private static final String BRIEF =
      "BRIEF: the scout reported the north road clear; the bridge is next.";

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
    // The brief request gets the brief; a turn in a long conversation reports 3,000 input tokens,
    // one in a conversation started from a brief 100.
    api.fallback(
        r -> {
          if (r.systemText().contains("You write the brief")) {
            return Reply.text(BRIEF).withUsage(800, 40, 0, 0);
          }
          boolean condensed = r.allText().contains("<context_summary>");
          return Reply.text("vorenus answers turn " + r.messages().size())
              .withUsage(condensed ? 100 : 3_000, 10, 0, 0);
        });
    workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path prompt = workspace.castra().resolve("centuriones/vorenus/prompt.md");
    Files.createDirectories(prompt.getParent());
    Files.writeString(prompt, "---\ndescription: vorenus\n---\nYou are vorenus, the scout.\n");
  }

  @AfterEach
  void tearDown() {
    stopLegio();
    api.close();
  }

  private void startLegio(Mode mode) {
    store =
        LegioStore.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                workspace.castra().resolve("praetorium.db"), 1 << 20, false, 4, Clock.systemUTC()));
    backend = new ClaudeCliBackend(RealClaudeCli.options(home, dir, api, mode));
    engine =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(workspace.castra()))
            .backend(backend)
            .settings(SessionSettings.defaults().withCondenseAfterTokens(1_000))
            .clock(Clock.systemUTC())
            .briefWriter(
                new TranscriptBriefWriter(
                    new FileTranscriptStore(
                        home.resolve(".claude/projects"), dir, Clock.systemUTC())))
            .build();
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

  private boolean say(String text) {
    return engine.handle(text, DispatchListener.NONE).ok();
  }

  private SessionRecord record() {
    return store.sessions().find("vorenus").orElseThrow();
  }

  private List<FakeMessagesApi.Request> turns() {
    return api.scriptedRequests().stream()
        .filter(r -> r.systemText().contains("You are vorenus"))
        .toList();
  }

  private List<FakeMessagesApi.Request> briefRequests() {
    return api.scriptedRequests().stream()
        .filter(r -> r.systemText().contains("You write the brief"))
        .toList();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aLongCliSessionContinuesInANewCliSessionStartedFromABriefOfItsTranscript(Mode mode) {
    startLegio(mode);
    assertThat(say("@vorenus Scout the north road")).isTrue();
    SessionRecord first = record();
    String oldId = first.backendSessionId();
    assertThat(first.context().tokens()).isGreaterThan(1_000);
    assertThat(briefRequests()).isEmpty();

    assertThat(say("@vorenus And the bridge?")).isTrue();

    // The brief was asked with the old conversation, read from the CLI's own transcript.
    assertThat(briefRequests()).hasSize(1);
    String asked = briefRequests().get(0).allText();
    assertThat(asked)
        .contains("<conversation>")
        .contains("Scout the north road")
        .contains("vorenus answers turn 1")
        .doesNotContain("And the bridge?");
    // The turn ran in a new CLI session holding the brief, not the old conversation.
    FakeMessagesApi.Request turn = turns().getLast();
    assertThat(turn.header("X-Claude-Code-Session-Id")).isNotEqualTo(oldId);
    String sent = String.join("\n", turn.messageTexts());
    assertThat(sent)
        .contains("<context_summary>\n" + BRIEF + "\n</context_summary>")
        .contains("And the bridge?")
        .doesNotContain("vorenus answers turn 1");

    SessionRecord condensed = record();
    assertThat(condensed.sessionId()).isEqualTo(first.sessionId());
    assertThat(condensed.backendSessionId())
        .isEqualTo(turn.header("X-Claude-Code-Session-Id"))
        .isNotEqualTo(oldId);
    assertThat(condensed.previousBackendSessionIds()).containsExactly(oldId);
    assertThat(condensed.inputTokens()).isLessThan(first.inputTokens());
    assertThat(condensed.messageCount()).isEqualTo(2);

    // After a restart, the next turn resumes the new CLI session, brief and all.
    stopLegio();
    startLegio(mode);
    assertThat(say("@vorenus Report")).isTrue();
    FakeMessagesApi.Request resumed = turns().getLast();
    assertThat(resumed.header("X-Claude-Code-Session-Id")).isEqualTo(condensed.backendSessionId());
    assertThat(String.join("\n", resumed.messageTexts()))
        .contains(BRIEF)
        .contains("And the bridge?")
        .contains("Report")
        .doesNotContain("<context_notice>");
    assertThat(briefRequests()).hasSize(1);
    assertThat(record().previousBackendSessionIds()).containsExactly(oldId);
  }
}
