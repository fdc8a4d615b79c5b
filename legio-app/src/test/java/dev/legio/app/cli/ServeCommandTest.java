package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.Role;
import dev.legio.mcp.McpToolServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code legio serve} in a child process, stopped with SIGTERM as a service manager would. */
class ServeCommandTest {
  @TempDir Path dir;

  @Test
  void serveSaysWhatItServesServesMcpOverHttpAndStopsCleanlyOnSigterm() throws Exception {
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
    // Any free port for MCP over HTTP, so that the test never collides with a running Legio.
    Path toml = ws.resolve("legio.toml");
    Files.writeString(
        toml,
        Files.readString(toml)
            .replace("http_port = 8740", "http_port = 0")
            .replace("\nport = 8740", "\nport = 0"));
    String java = ProcessHandle.current().info().command().orElse("java");
    Process serve =
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
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader output =
          new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
      // The test class path carries a console logger; skip its lines.
      String first = output.readLine();
      while (first != null && !first.startsWith("Legio is serving")) {
        first = output.readLine();
      }
      assertThat(first)
          .startsWith("Legio is serving " + ws)
          .contains("store sqlite", "back-end offline model", "agents legatus, pullo, vorenus")
          .contains("reaped every 60 s (timeout 30 min)", "daily at 02:00 UTC")
          .contains("idle agents' memory consolidated when its gates pass (checked every 60 min)");
      URI api = URI.create(first.substring(first.indexOf(" at ") + 4, first.indexOf(": store")));
      assertThat(api.getHost()).isEqualTo("127.0.0.1");
      var health =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(api.resolve("/healthz")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      var refused =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(api.resolve("/api/v1/status")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).isEqualTo(401);
      String mcpLine = output.readLine();
      while (mcpLine != null && !mcpLine.startsWith("MCP over HTTP at")) {
        mcpLine = output.readLine();
      }
      assertThat(mcpLine).startsWith("MCP over HTTP at http://127.0.0.1:");
      // The line names where the tokens are, and reads the same in the log file, whose lines pass
      // through the secret redactor (it once took "token: castra/..." for a secret).
      assertThat(mcpLine).contains("castra/mcp/tokens/NAME");
      assertThat(dev.legio.secrets.SecretRedactor.redact(mcpLine)).isEqualTo(mcpLine);
      URI endpoint = URI.create(mcpLine.split(" ")[4]);
      // MCP is served by the Legio server itself, at /mcp on the API's port.
      assertThat(endpoint.getPort()).isEqualTo(api.getPort());
      assertThat(endpoint.getPath()).isEqualTo("/mcp");
      String token = Files.readString(ws.resolve("castra/mcp/tokens/legatus")).strip();
      try (McpSyncClient legatus =
          McpClient.sync(
                  HttpClientStreamableHttpTransport.builder("http://" + endpoint.getAuthority())
                      .endpoint(endpoint.getPath())
                      .jsonMapper(McpToolServer.JSON_MAPPER)
                      .requestBuilder(
                          HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
                      .build())
              .requestTimeout(Duration.ofSeconds(30))
              .build()) {
        legatus.initialize();
        assertThat(legatus.listTools().tools())
            .extracting(McpSchema.Tool::name)
            .contains("dispatch", "publish_edictum", "list_commentarii");
        McpSchema.CallToolResult reply =
            legatus.callTool(
                new McpSchema.CallToolRequest(
                    "dispatch", Map.of("centurio_name", "pullo", "text", "Dig in")));
        assertThat(((McpSchema.TextContent) reply.content().get(0)).text())
            .contains("pullo received: \"Dig in\"");
      }
      // Prometheus metrics from the composition root: the turn just run, the pool, the JVM.
      String scraper =
          new ApiTokens(ws.resolve("castra"))
              .create("prometheus", Role.METRICS, List.of())
              .secret();
      var metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(api.resolve("/metrics"))
                      .header("Authorization", "Bearer " + scraper)
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).as(metrics.body()).isEqualTo(200);
      assertThat(metrics.body())
          .contains("legio_turns_total{agent=\"pullo\",outcome=\"completed\"} 1.0")
          .contains("hikaricp_connections_active{pool=\"legio-sqlite-readers\"}")
          .contains("jvm_memory_used_bytes");

      serve.destroy(); // SIGTERM
      assertThat(serve.waitFor(30, TimeUnit.SECONDS)).isTrue();
      // A clean stop, as supervisors read it (the JVM's own handling would exit 143).
      assertThat(serve.exitValue()).isZero();
      String logged = Files.readString(ws.resolve("castra/logs/legio.log"));
      assertThat(logged)
          .contains("Legio is serving")
          .contains("stopping: signal received")
          .contains("session engine stopped")
          .contains("stopped cleanly");
      assertThat(logged.indexOf("session engine stopped"))
          .isLessThan(logged.indexOf("stopped cleanly"));
    } finally {
      serve.destroyForcibly();
    }
  }
}
