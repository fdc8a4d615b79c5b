package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.LegioApp;
import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.config.LegioConfig;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.session.SessionEngine;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.FakeMessagesApi.Request;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ProcessCommandLines;
import dev.legio.testing.RealClaudeCli;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Claude Code CLI reaching Legio's memory tools over HTTP once the process serves MCP: the real
 * CLI, started by the claude-cli back-end with Legio's {@code --mcp-config}, connects to this
 * process's {@code /mcp} with the agent's token from its environment, and a model scripted (by a
 * fake Messages API) to call {@code list_edicta} gets the edicta back; no {@code legio mcp} is
 * started, and the token is on no command line and in no file but its own.
 */
class ClaudeCliMemoriaOverHttpTest {
  private static final String LIST_EDICTA = "mcp__memoria_vorenus__list_edicta";

  @TempDir Path dir;
  @TempDir Path home;

  private final List<AutoCloseable> closeAtTheEnd = new ArrayList<>();

  @org.junit.jupiter.api.AfterEach
  void closeWhatIsLeft() throws Exception {
    for (AutoCloseable c : closeAtTheEnd) {
      c.close();
    }
  }

  @Test
  void aCenturiosCliSessionCallsItsOwnToolsAtTheServersEndpointWithNoLegioMcpProcess()
      throws Exception {
    Path cli = RealClaudeCli.executable();
    List<String> commandLinesDuringTheCall = new CopyOnWriteArrayList<>();
    List<String> servedCallers = new CopyOnWriteArrayList<>();
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    String token;
    try (FakeMessagesApi api = FakeMessagesApi.start();
        LegioApp app =
            LegioApp.open(workspace, Map.of(), MutableClock.at("2026-02-15T12:00:00Z"))) {
      api.fallback(
          r -> {
            if (!r.toolNames().contains(LIST_EDICTA)) {
              return Reply.text("ok"); // side requests (titles, checks)
            }
            if (r.hasToolResult()) {
              commandLinesDuringTheCall.addAll(
                  ProcessCommandLines.ofDescendants(ProcessHandle.current()));
              return Reply.text("The edicta are in force.");
            }
            return Reply.toolUse(LIST_EDICTA, "{}");
          });
      app.memoria().forLegatus("legatus").publishEdictum("no-force-push", "Never force-push.");
      token = app.mcpTokens().tokenFor("vorenus");
      // Bound to every interface, as a server may be: the CLI still connects to 127.0.0.1.
      try (McpHttpServer server =
          McpHttpServer.start(
              new LegioConfig.Mcp(true, "0.0.0.0", 0),
              app.mcpTokens(),
              caller -> {
                servedCallers.add(caller);
                return app.toolsFor(caller);
              },
              app.agents()::isAgent)) {
        app.mcpServedAt(LocalMcpEndpoint.of("0.0.0.0", server.endpoint().getPort()));
        ClaudeCliBackend backend = persistentCli(cli, app, api);
        try (backend;
            SessionEngine engine = engine(app, backend)) {
          Outcome outcome = engine.handle("@vorenus Which edicta hold?", DispatchListener.NONE);

          assertThat(outcome.replies().get(0).text()).isEqualTo("The edicta are in force.");
        }
      }

      List<Request> withTools =
          api.requests().stream().filter(r -> r.toolNames().contains(LIST_EDICTA)).toList();
      // Scoped by the token: vorenus's tools, none of the legatus's.
      assertThat(withTools.get(0).toolNames())
          .contains("mcp__memoria_vorenus__search_memoria", "mcp__memoria_vorenus__publish_actum")
          .noneMatch(n -> n.endsWith("__publish_edictum") || n.endsWith("__dispatch"));
      Request answered =
          withTools.stream().filter(Request::hasToolResult).findFirst().orElseThrow();
      assertThat(answered.allText()).contains("no-force-push");
    }

    // The tool ran here, at the endpoint, for vorenus's token and no other.
    assertThat(servedCallers).containsExactly("vorenus");
    // The CLI was running during the call, and no `legio mcp` beside it.
    assertThat(commandLinesDuringTheCall)
        .anyMatch(c -> c.contains("claude") || c.contains("cli.js"))
        .noneMatch(c -> c.contains("dev.legio.app.cli.Main"))
        .noneMatch(c -> c.contains(token));
    assertThat(filesContaining(token, dir, home))
        .containsExactly(dir.resolve("castra/mcp/tokens/vorenus"));
  }

  /**
   * A CLI process whose MCP session the server no longer has (the server restarted, or ended the
   * session after a day idle) gets its tool call answered all the same: the 404 carries the code
   * the CLI reads as "session expired" (-32001), so it initializes again and calls once more.
   */
  @Test
  void aCliWhoseMcpSessionEndedInitializesAgainAndItsToolCallIsAnswered() throws Exception {
    Path cli = RealClaudeCli.executable();
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    try (FakeMessagesApi api = FakeMessagesApi.start();
        LegioApp app =
            LegioApp.open(workspace, Map.of(), MutableClock.at("2026-02-15T12:00:00Z"))) {
      api.fallback(
          r -> {
            if (!r.toolNames().contains(LIST_EDICTA)) {
              return Reply.text("ok"); // side requests (titles, checks)
            }
            return r.lastToolResult() != null
                ? Reply.text("The edicta are in force.")
                : Reply.toolUse(LIST_EDICTA, "{}");
          });
      app.memoria().forLegatus("legatus").publishEdictum("no-force-push", "Never force-push.");
      McpHttpServer first = startMcp(app, 0);
      closeAtTheEnd.add(first); // closed again if a step before its restart fails
      int port = first.endpoint().getPort();
      app.mcpServedAt(LocalMcpEndpoint.of("127.0.0.1", port));
      ClaudeCliBackend backend = persistentCli(cli, app, api);
      try (backend;
          SessionEngine engine = engine(app, backend)) {
        assertThat(engine.handle("@vorenus Which edicta hold?", DispatchListener.NONE).replies())
            .extracting(r -> r.text())
            .containsExactly("The edicta are in force.");
        // The server restarts on the same port: it has none of the sessions it had.
        first.close();
        try (McpHttpServer second = startMcp(app, port)) {
          int before = api.requests().size();

          Outcome again = engine.handle("@vorenus And now?", DispatchListener.NONE);

          assertThat(again.replies().get(0).text()).isEqualTo("The edicta are in force.");
          Request answered =
              api.requests().subList(before, api.requests().size()).stream()
                  .filter(r -> r.lastToolResult() != null)
                  .findFirst()
                  .orElseThrow();
          JsonNode result = answered.lastToolResult();
          assertThat(result.path("is_error").asBoolean(false)).as(result.toString()).isFalse();
          assertThat(result.toString()).contains("no-force-push");
        }
      }
    }
  }

  /** The claude-cli back-end, persistent, on the real CLI against {@code api}. */
  private ClaudeCliBackend persistentCli(Path cli, LegioApp app, FakeMessagesApi api) {
    return new ClaudeCliBackend(
        new ClaudeCliBackend.Options(
            cli,
            ClaudeCliBackend.Mode.PERSISTENT,
            "default",
            List.of(),
            Duration.ofSeconds(90),
            dir,
            RealClaudeCli.environment(home, api),
            app.memoriaOverMcp()));
  }

  private static SessionEngine engine(LegioApp app, ClaudeCliBackend backend) {
    return SessionEngine.builder()
        .messageLog(app.messageLog())
        .store(app.sessions())
        .agents(app.agents())
        .backend(backend)
        .settings(app.config().sessions())
        .clock(java.time.Clock.systemUTC())
        .build();
  }

  private static McpHttpServer startMcp(LegioApp app, int port) {
    return McpHttpServer.start(
        new LegioConfig.Mcp(true, "127.0.0.1", port),
        app.mcpTokens(),
        app::toolsFor,
        app.agents()::isAgent);
  }

  private static List<Path> filesContaining(String text, Path... roots) throws IOException {
    List<Path> found = new ArrayList<>();
    for (Path root : roots) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          if (Files.readString(f, StandardCharsets.ISO_8859_1).contains(text)) {
            found.add(f);
          }
        }
      }
    }
    return found;
  }
}
