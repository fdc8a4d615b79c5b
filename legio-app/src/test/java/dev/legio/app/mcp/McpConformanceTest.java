package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.app.cli.Main;
import dev.legio.config.LegioConfig;
import dev.legio.workspace.Workspace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official MCP conformance suite against a real Legio MCP HTTP server, through {@link
 * BearerProxy} (the suite cannot send the bearer token). The generic server scenarios must pass
 * with no failure and no warning; the scenarios that need the suite's own test tools, resources or
 * prompts are not applicable to Legio (see docs/BENCHMARKS.md, "MCP conformance").
 */
class McpConformanceTest {
  static final List<String> SCENARIOS =
      List.of(
          "server-initialize",
          "ping",
          "logging-set-level",
          "tools-list",
          "server-sse-multiple-streams",
          "server-sse-polling",
          "dns-rebinding-protection");

  @TempDir Path dir;

  @Test
  void theGenericScenariosOfTheOfficialSuitePassWithoutWarnings() throws Exception {
    ConformanceSuite suite = ConformanceSuite.installed();
    StringWriter err = new StringWriter();
    assertThat(
            Main.run(
                new String[] {"init", "legion"},
                Map.of(),
                dir,
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true)))
        .as(err.toString())
        .isZero();
    try (LegioApp app =
            LegioApp.open(new Workspace(dir.resolve("legion")), Map.of(), Clock.systemUTC());
        BearerProxy proxy = new BearerProxy(app.mcpTokens().tokenFor("vorenus"));
        McpHttpServer server =
            McpHttpServer.start(
                new LegioConfig.Mcp(true, "127.0.0.1", 0),
                app.mcpTokens(),
                app::toolsFor,
                c -> c.equals("legatus") || app.agents().centurioNames().contains(c),
                // The suite's valid request names the proxy's origin: configured as allowed.
                List.of("http://localhost:" + proxy.port()))) {
      proxy.forwardTo(server.endpoint().getPort());
      String url = "http://localhost:" + proxy.port() + McpHttpServer.PATH;
      List<ConformanceSuite.Check> checks = new ArrayList<>();
      for (String scenario : SCENARIOS) {
        checks.addAll(suite.runServerScenario(scenario, url, dir.resolve("conformance")));
      }
      // Every check, key=value, for the record: target/mcp-conformance-checks.txt.
      Files.write(
          Path.of("target", "mcp-conformance-checks.txt"),
          checks.stream()
              .map(
                  c ->
                      "scenario="
                          + c.scenario()
                          + " check="
                          + c.id()
                          + " status="
                          + c.status()
                          + (c.message().isEmpty() ? "" : " message=" + c.message()))
              .toList());
      assertThat(checks)
          .filteredOn(c -> c.status().equals("FAILURE") || c.status().equals("WARNING"))
          .as("failures and warnings of the conformance suite")
          .isEmpty();
      assertThat(checks)
          .filteredOn(c -> c.status().equals("SUCCESS"))
          .extracting(ConformanceSuite.Check::scenario)
          .containsAll(SCENARIOS.stream().filter(s -> !s.equals("server-sse-polling")).toList());
    }
  }
}
