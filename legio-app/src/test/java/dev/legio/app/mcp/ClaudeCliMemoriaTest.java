package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.session.SessionEngine;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.FakeMessagesApi.Request;
import dev.legio.testing.MutableClock;
import dev.legio.testing.RealClaudeCli;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Claude Code CLI reaching Legio's memory tools: the real CLI, started by the claude-cli
 * back-end with Legio's own {@code --mcp-config}, starts {@code legio mcp --agent vorenus} over
 * stdio, and a model scripted (by a fake Messages API) to call {@code list_edicta} gets the edicta
 * back.
 */
class ClaudeCliMemoriaTest {
  private static final String LIST_EDICTA = "mcp__memoria_vorenus__list_edicta";

  @TempDir Path dir;
  @TempDir Path home;
  private FakeMessagesApi api;

  @AfterEach
  void tearDown() {
    if (api != null) {
      api.close();
    }
  }

  @Test
  void anAgentsCliSessionCallsListEdictaOverMcpAndSeesOnlyItsOwnTools() throws Exception {
    Path cli = RealClaudeCli.executable();
    api = FakeMessagesApi.start();
    api.fallback(
        r -> {
          if (!r.toolNames().contains(LIST_EDICTA)) {
            return Reply.text("ok"); // side requests (titles, checks)
          }
          return r.hasToolResult()
              ? Reply.text("The edicta are in force.")
              : Reply.toolUse(LIST_EDICTA, "{}");
        });
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);

    try (LegioApp app =
        LegioApp.open(workspace, Map.of(), MutableClock.at("2026-02-15T12:00:00Z"))) {
      app.memoria().forLegatus("legatus").publishEdictum("no-force-push", "Never force-push.");
      ClaudeCliBackend backend =
          new ClaudeCliBackend(
              new ClaudeCliBackend.Options(
                  cli,
                  ClaudeCliBackend.Mode.PERSISTENT,
                  "default",
                  List.of(),
                  Duration.ofSeconds(90),
                  dir,
                  RealClaudeCli.environment(home, api),
                  app.memoriaOverMcp()));
      try (backend;
          SessionEngine engine =
              SessionEngine.builder()
                  .messageLog(app.messageLog())
                  .store(app.sessions())
                  .agents(app.agents())
                  .backend(backend)
                  .settings(app.config().sessions())
                  .clock(java.time.Clock.systemUTC())
                  .build()) {
        Outcome outcome = engine.handle("@vorenus Which edicta hold?", DispatchListener.NONE);

        assertThat(outcome.replies().get(0).text()).isEqualTo("The edicta are in force.");
      }
    }

    List<Request> withTools =
        api.requests().stream().filter(r -> r.toolNames().contains(LIST_EDICTA)).toList();
    assertThat(withTools).hasSizeGreaterThanOrEqualTo(2);
    // Scoped by construction: vorenus's server offers its own tools, none of the legatus's.
    assertThat(withTools.get(0).toolNames())
        .contains("mcp__memoria_vorenus__search_memoria", "mcp__memoria_vorenus__publish_actum")
        .noneMatch(n -> n.endsWith("__publish_edictum") || n.endsWith("__dispatch"));
    // The tool ran in `legio mcp --agent vorenus` and its result went back to the model.
    Request answered = withTools.stream().filter(Request::hasToolResult).findFirst().orElseThrow();
    assertThat(answered.allText()).contains("no-force-push");
  }
}
