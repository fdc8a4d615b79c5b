package dev.legio.app.mcp;

import static dev.legio.app.mcp.McpHttpClient.INITIALIZE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.LegioApp;
import dev.legio.app.http.SlowSender;
import dev.legio.config.LegioConfig;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Legio's streamable HTTP transport against a running {@link McpHttpServer}, with the JDK's
 * HttpClient: each defect a real client met, and what it gets now.
 */
class McpHttpTransportTest {
  static final List<String> LEAKS =
      List.of("Exception", "\tat ", "java.", "jakarta.", "io.modelcontextprotocol", "reactor.");

  @TempDir static Path dir;
  static LegioApp app;
  static McpHttpServer server;
  static McpHttpClient client;
  static String token;

  @BeforeAll
  static void start() {
    app = McpTestApps.initialised(dir);
    server =
        McpHttpServer.start(
            new LegioConfig.Mcp(true, "127.0.0.1", 0),
            app.mcpTokens(),
            app::toolsFor,
            c -> c.equals("legatus") || app.agents().centurioNames().contains(c));
    token = app.mcpTokens().tokenFor("vorenus");
    client = new McpHttpClient(server.endpoint(), token);
  }

  @AfterAll
  static void stop() {
    server.close();
    app.close();
  }

  static JsonNode assertError(HttpResponse<String> r, int status, Object id, int code, String msg)
      throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
    assertThat(r.body()).doesNotContain(LEAKS);
    JsonNode body = McpHttpClient.JSON.readTree(r.body());
    assertThat(body.path("jsonrpc").asText()).isEqualTo("2.0");
    assertThat(body.path("id")).isEqualTo(McpHttpClient.JSON.valueToTree(id));
    assertThat(body.at("/error/code").asInt()).isEqualTo(code);
    assertThat(body.at("/error/message").asText()).contains(msg);
    return body;
  }

  static String call(Object id, String params) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + McpHttpClient.JSON.valueToTree(id)
        + ",\"method\":\"tools/call\""
        + (params == null ? "" : ",\"params\":" + params)
        + "}";
  }

  @Test
  void aBodyThatStopsOrTricklesGets408WithAJsonRpcError() throws Exception {
    // The endpoint as the Legio server mounts it, behind a connector with a 1 s idle timeout.
    try (McpHttpServer.Mounted mounted =
        McpHttpServer.mountable(
            new LegioConfig.Mcp(true, "127.0.0.1", 0),
            "127.0.0.1",
            app.mcpTokens(),
            app::toolsFor,
            c -> true)) {
      Server jetty = new Server();
      ServerConnector connector = new ServerConnector(jetty);
      connector.setHost("127.0.0.1");
      connector.setIdleTimeout(1_000);
      jetty.addConnector(connector);
      jetty.setHandler(mounted.handler());
      jetty.start();
      try {
        URI url = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
        String head =
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + url.getPort()
                + "\r\nAuthorization: Bearer "
                + token
                + "\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n";
        assertThat(SlowSender.stopsAfter(url, head, "{\"jsonrpc\": \"2.0\""))
            .startsWith("HTTP/1.1 408")
            .containsIgnoringCase("\r\nconnection: close\r\n")
            .contains("-32000", "stopped arriving")
            .doesNotContain(LEAKS);
        assertThat(SlowSender.trickles(url, head, Duration.ofMillis(300)))
            .startsWith("HTTP/1.1 408")
            .containsIgnoringCase("\r\nconnection: close\r\n")
            .contains("-32000", "did not arrive whole within 2 s")
            .doesNotContain(LEAKS);
      } finally {
        jetty.stop();
      }
    }
  }

  @Test
  void answersDoNotNameTheServersSoftware() throws Exception {
    // MCP on a port of its own ([mcp] http_port): its own connector, the same rule as the API's.
    HttpResponse<String> refused = client.post("{\"jsonrpc\": ", null);
    HttpResponse<String> listed = client.post(McpHttpClient.INITIALIZE, null);
    for (HttpResponse<String> answer : List.of(refused, listed)) {
      assertThat(answer.statusCode()).as(answer.body()).isIn(200, 400);
      assertThat(answer.headers().map().keySet()).doesNotContain("server", "x-powered-by");
    }
  }

  @Test
  void aRefusalBeforeTheBodyArrivedClosesTheConnectionAndSaysSo() throws Exception {
    // The server answers without waiting for a body it refuses. When the body has not arrived, the
    // answer must say Connection: close: a JDK client not told so sent its next request on the
    // connection the server then closed, and lost it (a CI run failed so).
    URI url = server.endpoint();
    String[][] refusals = {
      {"Content-Type: text/plain", "Accept: application/json, text/event-stream", token, "415"},
      {"Content-Type: application/json", "Accept: text/html", token, "406"},
      {"Content-Type: application/json", "Accept: application/json", "mcp_not-a-token", "401"},
    };
    for (String[] r : refusals) {
      String head = mcpHead(url, r[0], r[1], r[2], 100);
      assertThat(SlowSender.stopsAfter(url, head, ""))
          .as(r[3])
          .startsWith("HTTP/1.1 " + r[3])
          .containsIgnoringCase("\r\nconnection: close\r\n");
    }
    String metadata =
        mcpHead(url, "Content-Type: application/json", "Accept: */*", token, 100)
            .replace("POST /mcp ", "POST " + McpEndpoint.WELL_KNOWN + " ");
    assertThat(SlowSender.stopsAfter(url, metadata, ""))
        .startsWith("HTTP/1.1 405")
        .containsIgnoringCase("\r\nconnection: close\r\n");

    // When the whole body came with the request, the connection stays open for the next one.
    String body = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}";
    String head =
        mcpHead(
            url,
            "Content-Type: text/plain",
            "Accept: application/json, text/event-stream",
            token,
            body.length());
    try (Socket socket = new Socket(url.getHost(), url.getPort())) {
      socket.setSoTimeout(10_000);
      InputStream in = new BufferedInputStream(socket.getInputStream());
      for (int i = 0; i < 2; i++) {
        socket.getOutputStream().write((head + "\r\n" + body).getBytes(StandardCharsets.UTF_8));
        String answer = readOneAnswer(in);
        assertThat(answer).startsWith("HTTP/1.1 415");
        assertThat(answer).doesNotContainIgnoringCase("connection: close");
      }
    }
  }

  private static String mcpHead(URI url, String type, String accept, String token, int length) {
    return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
        + url.getPort()
        + "\r\nAuthorization: Bearer "
        + token
        + "\r\n"
        + type
        + "\r\n"
        + accept
        + "\r\nContent-Length: "
        + length
        + "\r\n";
  }

  /**
   * Reads one HTTP/1.1 answer with a Content-Length (head and body) from a kept-open connection.
   */
  private static String readOneAnswer(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the server closed the connection: " + head);
      }
      head.append((char) b);
    }
    int length =
        head.toString()
            .lines()
            .filter(l -> l.regionMatches(true, 0, "Content-Length:", 0, 15))
            .mapToInt(l -> Integer.parseInt(l.substring(15).strip()))
            .findFirst()
            .orElseThrow();
    return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  @Test
  void aForeignOriginOrHostIsRefusedWith403AndTheServersOwnIsServed() throws Exception {
    assertError(
        client.post(INITIALIZE, null, "Origin", "http://evil.example.com"),
        403,
        null,
        -32000,
        "Origin 'http://evil.example.com' is not allowed");
    assertError(
        client.post(INITIALIZE, null, "Origin", "null"), 403, null, -32000, "is not allowed");
    int port = server.endpoint().getPort();
    assertThat(client.post(INITIALIZE, null, "Origin", "http://127.0.0.1:" + port).statusCode())
        .isEqualTo(200);
    assertThat(client.post(INITIALIZE, null, "Origin", "http://localhost:" + port).statusCode())
        .isEqualTo(200);
    // The same host on another port is another origin.
    assertThat(
            client.post(INITIALIZE, null, "Origin", "http://localhost:" + (port + 1)).statusCode())
        .isEqualTo(403);
    assertThat(client.post(INITIALIZE, null).statusCode()).isEqualTo(200);

    String evilHost = McpHttpClient.rawPost(port, "evil.example.com", token, INITIALIZE);
    assertThat(evilHost).startsWith("HTTP/1.1 403").contains("-32000").doesNotContain(LEAKS);
    assertThat(McpHttpClient.rawPost(port, "localhost:" + port, token, INITIALIZE))
        .startsWith("HTTP/1.1 200");
  }

  @Test
  void aConfiguredOriginIsServed() throws Exception {
    try (McpHttpServer withWebClient =
        McpHttpServer.start(
            new LegioConfig.Mcp(true, "127.0.0.1", 0),
            app.mcpTokens(),
            app::toolsFor,
            c -> true,
            List.of("https://console.example.com"))) {
      McpHttpClient c = new McpHttpClient(withWebClient.endpoint(), token);
      assertThat(c.post(INITIALIZE, null, "Origin", "https://console.example.com").statusCode())
          .isEqualTo(200);
      assertThat(c.post(INITIALIZE, null, "Origin", "https://other.example.com").statusCode())
          .isEqualTo(403);
    }
  }

  @Test
  void anUnsupportedProtocolVersionIs400() throws Exception {
    String session = client.session();
    assertError(
        client.post(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
            session,
            "MCP-Protocol-Version",
            "1999-01-01"),
        400,
        null,
        -32000,
        "unsupported MCP-Protocol-Version '1999-01-01'; this server speaks 2024-11-05,");
    assertThat(
            client
                .post(
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}",
                    session,
                    "MCP-Protocol-Version",
                    "2025-11-25")
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void malformedMessagesGetJsonRpcErrorsNotStackTraces() throws Exception {
    String session = client.session();
    assertError(client.post("hello", session), 400, null, -32700, "parse error");
    assertError(client.post("{\"jsonrpc\":\"2.0\",\"id\":", session), 400, null, -32700, "parse");
    assertError(client.post("", session), 400, null, -32700, "parse error: the message is empty");
    assertError(client.post("null", session), 400, null, -32600, "got null");
    assertError(
        client.post("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", session),
        400,
        null,
        -32600,
        "batches are not supported");
    assertError(
        client.post("{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}", session),
        400,
        5,
        -32600,
        "\"jsonrpc\" must be \"2.0\"");
    assertError(
        client.post(
            "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}",
            session,
            "Content-Type",
            "text/plain"),
        415,
        null,
        -32000,
        "Content-Type: application/json (got 'text/plain')");
    assertError(
        client.post(
            "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}",
            session,
            "Content-Encoding",
            "gzip"),
        415,
        null,
        -32000,
        "Content-Encoding: gzip, which this server does not decode");
    assertError(
        client.post(
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}", session, "Accept", "text/html"),
        406,
        null,
        -32000,
        "Accept: application/json, text/event-stream");
  }

  @Test
  void sessionsMissingUnknownOrEndedGetJsonRpcErrors() throws Exception {
    String ping = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}";
    assertError(client.post(ping, null), 400, 8, -32000, "missing Mcp-Session-Id header");
    assertError(client.post(ping, "no-such-session"), 404, 8, -32001, "send initialize again");
    String session = client.session();
    assertThat(client.post(ping, session).statusCode()).isEqualTo(200);
    HttpResponse<String> deleted =
        client.http.send(
            client.request(session).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(deleted.statusCode()).isEqualTo(204);
    assertError(client.post(ping, session), 404, 8, -32001, "unknown MCP session");
  }

  @Test
  void everyToolsCallWithAnIdIsAnsweredAndErrorsNameWhatWasCalled() throws Exception {
    String session = client.session();
    assertError(client.post(call(10, "[1]"), session), 200, 10, -32602, "got an array");
    assertError(
        client.post(call(11, "{\"name\":\"list_acta\",\"arguments\":\"x\"}"), session),
        200,
        11,
        -32602,
        "\"arguments\" must be an object, got a string");
    assertError(client.post(call(12, null), session), 200, 12, -32602, "tools/call needs");
    assertError(
        client.post(call("13", "{\"name\":\"publish_edictumm\",\"arguments\":{}}"), session),
        200,
        "13",
        -32602,
        "unknown tool 'publish_edictumm'; this agent's tools are: list_edicta, read_edictum,");
    JsonNode unknownMethod =
        McpHttpClient.message(
            client.post("{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"resources/list\"}", session));
    assertThat(unknownMethod.at("/error/code").asInt()).isEqualTo(-32601);
    JsonNode ok =
        McpHttpClient.message(
            client.post(call(15, "{\"name\":\"list_acta\",\"arguments\":{}}"), session));
    assertThat(ok.at("/result/content/0/text").asText()).isEqualTo("<acta></acta>");
    assertThat(ok.at("/result/structuredContent/element/element").asText()).isEqualTo("acta");
  }

  @Test
  void aToolCallIsAnsweredOnAResumableEventStream() throws Exception {
    String session = client.session();
    HttpResponse<String> r =
        client.post(call(20, "{\"name\":\"list_acta\",\"arguments\":{}}"), session);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
    List<McpHttpClient.Event> events = McpHttpClient.events(r.body());
    assertThat(events).hasSize(2);
    McpHttpClient.Event priming = events.get(0);
    assertThat(priming.data()).isEmpty();
    assertThat(priming.retry()).isEqualTo("1000");
    assertThat(priming.id()).matches("s\\d+\\.0");
    McpHttpClient.Event answer = events.get(1);
    String stream = priming.id().substring(0, priming.id().indexOf('.'));
    assertThat(answer.id()).isEqualTo(stream + ".1");
    assertThat(McpHttpClient.JSON.readTree(answer.data()).path("id").asInt()).isEqualTo(20);

    // The answer was sent in full: the stream keeps nothing for a replay (a stream whose
    // connection broke before its end keeps its events: SseStreamTest).
    assertError(
        client.http.send(
            client
                .request(session)
                .header("Accept", "text/event-stream")
                .header("Last-Event-ID", priming.id())
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString()),
        404,
        null,
        -32000,
        "were sent in full and are no longer kept");

    assertError(
        client.http.send(
            client
                .request(session)
                .header("Accept", "text/event-stream")
                .header("Last-Event-ID", "s999.3")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString()),
        404,
        null,
        -32000,
        "unknown Last-Event-ID 's999.3'");
  }

  @Test
  void aGetStreamSendsItsHeadersAndAPrimingEventAtOnce() throws Exception {
    String session = client.session();
    CompletableFuture<HttpResponse<InputStream>> opened =
        client.http.sendAsync(
            client.request(session).header("Accept", "text/event-stream").GET().build(),
            HttpResponse.BodyHandlers.ofInputStream());
    HttpResponse<InputStream> r = opened.get(5, TimeUnit.SECONDS);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
    try (InputStream in = r.body()) {
      byte[] first = new byte[64];
      int n = in.read(first);
      assertThat(new String(first, 0, n, StandardCharsets.UTF_8))
          .startsWith("id: g")
          .contains("retry: 1000");
    }
    assertError(
        client.http.send(
            client.request(session).header("Accept", "application/json").GET().build(),
            HttpResponse.BodyHandlers.ofString()),
        406,
        null,
        -32000,
        "Accept: text/event-stream");
  }

  @Test
  void a401NamesTheProtectedResourceMetadataWhichDescribesTheBearerScheme() throws Exception {
    HttpResponse<String> refused =
        new McpHttpClient(server.endpoint(), null).post(INITIALIZE, null);
    assertError(
        refused, 401, null, -32000, "no Authorization header: send Authorization: Bearer TOKEN");
    String challenge = refused.headers().firstValue("WWW-Authenticate").orElseThrow();
    assertThat(challenge).startsWith("Bearer realm=\"legio\"").contains("resource_metadata=\"");
    String metadataUrl =
        challenge.substring(challenge.indexOf("resource_metadata=\"") + 19, challenge.length() - 1);
    assertThat(metadataUrl)
        .isEqualTo(
            server.endpoint().resolve("/.well-known/oauth-protected-resource/mcp").toString());
    for (String url :
        List.of(
            metadataUrl,
            server.endpoint().resolve("/.well-known/oauth-protected-resource").toString())) {
      HttpResponse<String> metadata =
          client.http.send(
              HttpRequest.newBuilder(URI.create(url)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(metadata.statusCode()).isEqualTo(200);
      JsonNode doc = McpHttpClient.JSON.readTree(metadata.body());
      assertThat(doc.path("resource").asText()).isEqualTo(server.endpoint().toString());
      assertThat(doc.path("bearer_methods_supported").toString()).isEqualTo("[\"header\"]");
      assertThat(doc.path("legio_token_help").asText()).contains("legio mcp token NAME");
    }
  }

  @Test
  void aRequestBeforeInitializedIsStillAnswered() throws Exception {
    HttpResponse<String> opened = client.post(INITIALIZE, null);
    String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
    HttpResponse<String> pinged =
        client.post("{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"ping\"}", session);
    assertThat(McpHttpClient.message(pinged).has("result")).isTrue();
  }
}
