package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.config.LegioConfig;
import dev.legio.mcp.McpTokens;
import dev.legio.testing.HoldingTool;
import dev.legio.testing.LogCapture;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code notifications/cancelled} over MCP's streamable HTTP transport ({@link CallerTransport}).
 */
class McpHttpCancellationTest {
  /** A reason that would forge a log line if logged as it is. */
  static final String HOSTILE = "user stop\n2026-01-01 ERROR forged line";

  @TempDir Path dir;
  final HoldingTool hold = new HoldingTool();
  McpHttpServer server;
  McpHttpClient client;

  @BeforeEach
  void start() {
    McpTokens tokens = new McpTokens(dir);
    server =
        McpHttpServer.start(
            new LegioConfig.Mcp(true, "127.0.0.1", 0),
            tokens,
            caller -> hold.tools(),
            caller -> caller.equals("vorenus"));
    client = new McpHttpClient(server.endpoint(), tokens.tokenFor("vorenus"));
  }

  @AfterEach
  void stop() {
    hold.release.countDown();
    server.close();
  }

  static String cancel(Object id, String reason) throws Exception {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
        + "\"requestId\":"
        + McpHttpClient.JSON.valueToTree(id)
        + (reason == null ? "" : ",\"reason\":" + McpHttpClient.JSON.writeValueAsString(reason))
        + "}}";
  }

  CompletableFuture<HttpResponse<String>> callAsync(Object id, String tool, String session) {
    return client.http.sendAsync(
        client
            .request(session)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    McpHttpTransportTest.call(id, "{\"name\":\"" + tool + "\",\"arguments\":{}}")))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aRunningCallIsInterruptedItsStreamEndsWithoutAnAnswerAndTheReasonIsLoggedQuoted()
      throws Exception {
    try (LogCapture legio = new LogCapture();
        LogCapture sdk = new LogCapture("io.modelcontextprotocol")) {
      String session = client.session();
      CompletableFuture<HttpResponse<String>> running = callAsync(7, "hold", session);
      assertThat(hold.began.await(5, TimeUnit.SECONDS)).isTrue();

      HttpResponse<String> cancelled = client.post(cancel(7, HOSTILE), session);

      assertThat(cancelled.statusCode()).isEqualTo(202);
      assertThat(hold.interrupted.await(5, TimeUnit.SECONDS))
          .as("the tool's thread is interrupted (before: the call ran on until it ended)")
          .isTrue();
      HttpResponse<String> stream = running.get(5, TimeUnit.SECONDS);
      assertThat(McpHttpClient.events(stream.body()))
          .as("the stream ends with no answer to the cancelled request")
          .allSatisfy(e -> assertThat(e.data()).isBlank());
      // the session goes on, and the id is free again once the call has stopped
      HttpResponse<String> again =
          client.post(McpHttpTransportTest.call(7, "{\"name\":\"greet\"}"), session);
      assertThat(McpHttpClient.message(again).at("/result/content/0/text").asText())
          .isEqualTo("Ave, vorenus.");
      assertThat(legio.text()).contains("the client cancelled request 7");
      assertThat(legio.text() + sdk.text())
          .as("no log line forged by the client's reason")
          .doesNotContain("\n2026-01-01 ERROR forged");
    }
  }

  @Test
  void endingTheSessionCancelsItsRunningCallsAsACancellationDoes() throws Exception {
    String session = client.session();
    CompletableFuture<HttpResponse<String>> running = callAsync(4, "hold", session);
    assertThat(hold.began.await(5, TimeUnit.SECONDS)).isTrue();

    HttpResponse<String> deleted =
        client.http.send(
            client.request(session).DELETE().build(), HttpResponse.BodyHandlers.ofString());

    assertThat(deleted.statusCode()).isEqualTo(204);
    assertThat(hold.interrupted.await(5, TimeUnit.SECONDS))
        .as("the tool's thread is interrupted (before: the call ran on until it ended)")
        .isTrue();
    HttpResponse<String> stream = running.get(5, TimeUnit.SECONDS);
    assertThat(McpHttpClient.events(stream.body()))
        .as("the stream ends with no answer to the cancelled request")
        .allSatisfy(e -> assertThat(e.data()).isBlank());
  }

  @Test
  void unknownFinishedAndMalformedCancellationsAreIgnored() throws Exception {
    String session = client.session();
    HttpResponse<String> done =
        client.post(McpHttpTransportTest.call(5, "{\"name\":\"greet\"}"), session);
    assertThat(McpHttpClient.message(done).path("id").asInt()).isEqualTo(5);

    for (String ignored :
        new String[] {
          cancel(5, null),
          cancel("never-sent", "why not"),
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":[1]}}",
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}"
        }) {
      HttpResponse<String> r = client.post(ignored, session);
      assertThat(r.statusCode()).as(ignored).isEqualTo(202);
      assertThat(r.body()).isEmpty();
    }
    HttpResponse<String> next =
        client.post(McpHttpTransportTest.call(6, "{\"name\":\"greet\"}"), session);
    assertThat(McpHttpClient.message(next).at("/result/content/0/text").asText())
        .isEqualTo("Ave, vorenus.");
  }

  @Test
  void aCancellationReachesOnlyItsOwnSession() throws Exception {
    String mine = client.session();
    String other = client.session();
    CompletableFuture<HttpResponse<String>> running = callAsync(8, "hold", mine);
    assertThat(hold.began.await(5, TimeUnit.SECONDS)).isTrue();

    assertThat(client.post(cancel(8, null), other).statusCode()).isEqualTo(202);

    assertThat(hold.interrupted.await(300, TimeUnit.MILLISECONDS)).isFalse();
    hold.release.countDown();
    assertThat(
            McpHttpClient.message(running.get(5, TimeUnit.SECONDS))
                .at("/result/content/0/text")
                .asText())
        .isEqualTo("released");
  }

  @Test
  void aSecondCallWithTheIdOfOneStillRunningIsRefused() throws Exception {
    String session = client.session();
    CompletableFuture<HttpResponse<String>> running = callAsync(9, "hold", session);
    assertThat(hold.began.await(5, TimeUnit.SECONDS)).isTrue();

    HttpResponse<String> twice =
        client.post(McpHttpTransportTest.call(9, "{\"name\":\"greet\"}"), session);

    McpHttpTransportTest.assertError(
        twice, 400, 9, -32600, "id 9 is already used by a request still running");
    hold.release.countDown();
    assertThat(McpHttpClient.message(running.get(5, TimeUnit.SECONDS)).path("id").asInt())
        .isEqualTo(9);
  }
}
