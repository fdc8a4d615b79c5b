package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.app.cli.Main;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.Role;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ProcessCommandLines;
import dev.legio.testing.RealClaudeCli;
import dev.legio.workspace.Workspace;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio serve} with the claude-cli back-end, in a child process: the real CLI it starts for
 * an agent reaches the agent's tools at serve's own {@code /mcp}; no {@code legio mcp} process runs
 * under serve, and the agent's token is on none of its children's command lines.
 */
class ServeCliMemoriaOverHttpProcessTest {
  private static final String LIST_EDICTA = "mcp__memoria_vorenus__list_edicta";

  @TempDir Path dir;
  @TempDir Path home;

  @Test
  void servesCliSessionsTheirToolsOverItsOwnEndpointWithNoLegioMcpChild() throws Exception {
    Path cli = RealClaudeCli.executable();
    Path ws = dir.resolve("legion");
    StringWriter sink = new StringWriter();
    assertThat(
            Main.run(
                new String[] {"init", ws.toString()},
                Map.of(),
                dir,
                new PrintWriter(sink),
                new PrintWriter(sink)))
        .isZero();
    Path toml = ws.resolve("legio.toml");
    Files.writeString(
        toml,
        Files.readString(toml)
            .replace("http_port = 8740", "http_port = 0")
            .replace("\nport = 8740", "\nport = 0")
            .replace("kind = \"auto\"", "kind = \"claude-cli\"")
            .replace("binary = \"claude\"", "binary = \"" + cli + "\""));
    try (LegioApp app =
        LegioApp.open(new Workspace(ws), Map.of(), MutableClock.at("2026-02-15T12:00:00Z"))) {
      app.memoria().forLegatus("legatus").publishEdictum("no-force-push", "Never force-push.");
    }
    String apiToken =
        new ApiTokens(ws.resolve("castra")).create("test", Role.OPERATOR, List.of()).secret();
    List<String> childrenDuringTheCall = new CopyOnWriteArrayList<>();
    List<ProcessHandle> serveHandle = new CopyOnWriteArrayList<>();
    List<String> toolResults = new CopyOnWriteArrayList<>();
    try (FakeMessagesApi api = FakeMessagesApi.start()) {
      api.fallback(
          r -> {
            if (!r.toolNames().contains(LIST_EDICTA)) {
              return Reply.text("ok"); // side requests (titles, checks)
            }
            if (r.hasToolResult()) {
              childrenDuringTheCall.addAll(ProcessCommandLines.ofDescendants(serveHandle.get(0)));
              toolResults.add(r.allText());
              return Reply.text("The edicta are in force.");
            }
            return Reply.toolUse(LIST_EDICTA, "{}");
          });
      String java = ProcessHandle.current().info().command().orElse("java");
      ProcessBuilder builder =
          new ProcessBuilder(
                  List.of(
                      java,
                      "--enable-native-access=ALL-UNNAMED",
                      "-cp",
                      System.getProperty("java.class.path"),
                      Main.class.getName(),
                      "--castra",
                      ws.toString(),
                      "serve"))
              .redirectErrorStream(true);
      builder.environment().putAll(RealClaudeCli.environment(home, api));
      Process serve = builder.start();
      serveHandle.add(serve.toHandle());
      try {
        BufferedReader output =
            new BufferedReader(
                new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
        String first = output.readLine();
        while (first != null && !first.startsWith("Legio is serving")) {
          first = output.readLine();
        }
        assertThat(first).contains("back-end Claude Code CLI");
        URI url = URI.create(first.substring(first.indexOf(" at ") + 4, first.indexOf(": store")));
        Thread drain = Thread.ofPlatform().daemon().start(() -> output.lines().forEach(l -> {}));
        HttpResponse<String> answer =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(url.resolve("/api/v1/messages"))
                        .header("Authorization", "Bearer " + apiToken)
                        .header("Content-Type", "application/json")
                        .POST(
                            HttpRequest.BodyPublishers.ofString(
                                "{\"text\": \"@vorenus Which edicta hold?\"}"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).contains("The edicta are in force.");
        // The tool really ran at the endpoint: its result holds the edictum, not a refusal.
        assertThat(toolResults).singleElement().asString().contains("no-force-push");
        serve.destroy();
        assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        drain.join(5_000);
      } finally {
        serve.destroyForcibly();
      }
    }
    String token = Files.readString(ws.resolve("castra/mcp/tokens/vorenus")).strip();
    assertThat(childrenDuringTheCall)
        .anyMatch(c -> c.contains("claude") || c.contains("cli.js"))
        .noneMatch(c -> c.contains("dev.legio.app.cli.Main"))
        .noneMatch(c -> c.contains(token));
    assertThat(Files.readString(ws.resolve("castra/logs/legio.log"))).doesNotContain(token);
  }
}
