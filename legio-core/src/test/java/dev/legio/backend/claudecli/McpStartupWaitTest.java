package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.LogCapture;
import dev.legio.testing.RealClaudeCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link McpStartupWait} against the real Claude Code CLI: an MCP server slower to start than the
 * CLI waits for on its own (5 s, then 2 s at the first message) still has its tools in the first
 * request to the model; a server that fails does not hold the turn.
 */
class McpStartupWaitTest {
  /** Longer than the CLI's own 5 s + 2 s, so that without the wait the tools are missing. */
  private static final int SLOW_START_MILLIS = 9_000;

  /**
   * A stdio MCP server with one tool, {@code ping}, that reads nothing for the milliseconds of its
   * first argument (as a JVM that is still starting).
   */
  private static final String SLOW_SERVER =
      """
      const delay = parseInt(process.argv[2] || "0", 10);
      setTimeout(() => {
        let buf = "";
        process.stdin.on("data", (d) => {
          buf += d;
          let i;
          while ((i = buf.indexOf("\\n")) >= 0) {
            const line = buf.slice(0, i);
            buf = buf.slice(i + 1);
            if (!line.trim()) continue;
            const m = JSON.parse(line);
            if (m.id === undefined) continue;
            let result = {};
            if (m.method === "initialize") {
              result = { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} },
                serverInfo: { name: "slow", version: "1" } };
            } else if (m.method === "tools/list") {
              result = { tools: [{ name: "ping", description: "Answers pong.",
                inputSchema: { type: "object", properties: {} } }] };
            }
            process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n");
          }
        });
      }, delay);
      """;

  @TempDir Path home;
  @TempDir Path work;
  private FakeMessagesApi api;
  private ClaudeCliBackend backend;

  @BeforeEach
  void start() {
    RealClaudeCli.executable();
    api = FakeMessagesApi.start();
    api.fallback(r -> Reply.text("Pong."));
  }

  @AfterEach
  void stop() {
    if (backend != null) {
      backend.close();
    }
    api.close();
  }

  private ClaudeCliBackend backend(String serverCommand, List<String> serverArgs) {
    StringBuilder args = new StringBuilder();
    for (String arg : serverArgs) {
      args.append(args.isEmpty() ? "" : ",").append('"').append(arg).append('"');
    }
    String config =
        "{\"mcpServers\": {\"slow\": {\"type\": \"stdio\", \"command\": \""
            + serverCommand
            + "\", \"args\": ["
            + args
            + "]}}}";
    ClaudeCliBackend.Options real = RealClaudeCli.options(home, work, api, Mode.PERSISTENT);
    backend =
        new ClaudeCliBackend(
            new ClaudeCliBackend.Options(
                real.executable(),
                Mode.PERSISTENT,
                "default",
                List.of("mcp__slow"),
                // longer than the wait's own limit: a wait held to it ends in its warning
                McpStartupWait.LIMIT.multipliedBy(2),
                work,
                real.environment(),
                spec -> Optional.of(config)));
    return backend;
  }

  private static SessionSpec spec() {
    return new SessionSpec(
        "vorenus", "You are vorenus, a scout.", null, SessionSpec.OPERATOR_ROLE, null);
  }

  @Test
  void theFirstRequestCarriesTheToolsOfAServerSlowerToStartThanTheCliWaits() throws Exception {
    Path server = work.resolve("slow-mcp.js");
    Files.writeString(server, SLOW_SERVER);
    ClaudeCliBackend backend =
        backend("node", List.of(server.toString(), String.valueOf(SLOW_START_MILLIS)));

    try (BackendSession session = backend.open(spec())) {
      assertThat(session.send("Ping the outpost", e -> {}).text()).isEqualTo("Pong.");
    }

    List<FakeMessagesApi.Request> turn =
        api.requests().stream()
            .filter(FakeMessagesApi.Request::isMessages)
            .filter(r -> r.lastUserText().contains("Ping the outpost"))
            .toList();
    assertThat(turn).isNotEmpty();
    assertThat(turn.get(0).toolNames()).contains("mcp__slow__ping");
  }

  /**
   * Told by what the wait did, not by the wall clock: a loaded machine (a load of 22 on 2 cores)
   * took 78 s over a turn whose wait was over as soon as the CLI answered.
   */
  @Test
  void aServerThatFailsToStartDoesNotHoldTheTurn() {
    ClaudeCliBackend backend = backend("false", List.of());

    try (LogCapture log = new LogCapture(McpStartupWait.class.getName());
        BackendSession session = backend.open(spec())) {
      assertThat(session.send("Ping the outpost", e -> {}).text()).isEqualTo("Pong.");

      // The first answer the CLI gave about its servers ended the wait: the failed one is told
      // as such, not waited for until the wait's limit (the turn's time-out is longer).
      assertThat(log.text())
          .contains("MCP server slow is failed")
          .doesNotContain("still starting", "were not ready");
    }
  }
}
