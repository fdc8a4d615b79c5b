package dev.legio.app.mcp;

import static dev.legio.app.mcp.McpHttpTransportTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.config.LegioConfig;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code Accept} of an MCP request weighed as RFC 9110 says, as the API weighs it: a POST must
 * take both JSON and a stream (wildcards take them, {@code q=0} refuses, a longer type that only
 * contains the name does not count), a GET the stream; a request without one is refused, since
 * MCP's clients must send it.
 */
class McpAcceptTest {
  @TempDir static Path dir;
  static LegioApp app;
  static McpHttpServer server;
  static McpHttpClient client;

  @BeforeAll
  static void start() {
    app = McpTestApps.initialised(dir);
    server =
        McpHttpServer.start(
            new LegioConfig.Mcp(true, "127.0.0.1", 0),
            app.mcpTokens(),
            app::toolsFor,
            c -> c.equals("legatus") || app.agents().centurioNames().contains(c));
    client = new McpHttpClient(server.endpoint(), app.mcpTokens().tokenFor("vorenus"));
  }

  @AfterAll
  static void stop() {
    server.close();
    app.close();
  }

  @Test
  void aPostIsAnsweredWhenItsAcceptTakesJsonAndTheStreamAsRfc9110WeighsIt() throws Exception {
    String session = client.session();
    String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
    for (String taken :
        List.of(
            "application/json, text/event-stream",
            "text/event-stream, application/json;q=0.5",
            "*/*",
            "application/*, text/*",
            "APPLICATION/JSON, Text/Event-Stream",
            "application/json;charset=utf-8, text/event-stream;q=0.1")) {
      HttpResponse<String> r = client.post(ping, session, "Accept", taken);
      assertThat(r.statusCode()).as(taken + ": " + r.body()).isEqualTo(200);
    }
    for (String refused :
        List.of(
            "application/json;q=0, text/event-stream",
            "application/json, text/event-stream;q=0",
            "*/*, text/event-stream;q=0",
            "application/jsonp, text/event-streams",
            "application/json",
            "text/html",
            "")) {
      assertError(
          client.post(ping, session, "Accept", refused),
          406,
          null,
          -32000,
          "send Accept: application/json, text/event-stream");
    }
  }

  @Test
  void aGetOpensTheStreamWhenItsAcceptTakesIt() throws Exception {
    String session = client.session();
    for (String refused : List.of("text/event-stream;q=0", "application/json", "*/*;q=0")) {
      assertThat(get(session, refused))
          .as(refused)
          .startsWith("406 ")
          .contains("text/event-stream");
    }
    assertThat(get(session, "text/*")).startsWith("200 text/event-stream");
  }

  /**
   * A GET's status and, when it is refused, its body; when it opens a stream, the stream's type
   * (read no further: it does not end).
   */
  private static String get(String session, String accept) throws Exception {
    HttpResponse<InputStream> r =
        client.http.send(
            client.request(session).header("Accept", accept).GET().build(),
            HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = r.body()) {
      return r.statusCode()
          + " "
          + (r.statusCode() == 200
              ? r.headers().firstValue("Content-Type").orElse("")
              : new String(body.readAllBytes(), StandardCharsets.UTF_8));
    }
  }
}
