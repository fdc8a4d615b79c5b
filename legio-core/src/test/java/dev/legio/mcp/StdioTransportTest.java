package dev.legio.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.Toolbox;
import dev.legio.tools.Toolset;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link StdioTransport}: what a client that sends bad lines, or leaves, gets. */
class StdioTransportTest {
  static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\"}";

  static void assertError(JsonNode answer, Object id, int code, String message) {
    assertThat(answer.path("jsonrpc").asText()).isEqualTo("2.0");
    assertThat(answer.path("id")).isEqualTo(StdioHarness.JSON.valueToTree(id));
    assertThat(answer.path("error").path("code").asInt()).isEqualTo(code);
    assertThat(answer.path("error").path("message").asText()).contains(message);
    assertThat(answer.toString()).doesNotContain("Exception", "java.", "\tat ");
  }

  @Test
  void everyUnparseableLineIsAnsweredAndTheServerKeepsServing() throws Exception {
    try (StdioHarness s = new StdioHarness().initialized()) {
      s.send("hello");
      assertError(s.next(), null, -32700, "parse error: the message is not valid JSON");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"pi");
      assertError(s.next(), null, -32700, "parse error");
      s.send("null");
      assertError(s.next(), null, -32600, "expected a JSON-RPC 2.0 object, got null");
      s.send("[" + PING + "]");
      assertError(s.next(), null, -32600, "batches are not supported");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":1} trailing");
      assertError(s.next(), null, -32700, "parse error");
      s.sendBytes(new byte[] {(byte) 0xff, (byte) 0xfe, '{', '\n'});
      assertError(s.next(), null, -32700, "parse error");
      s.send(PING);
      assertThat(s.answerTo(42).path("result").isObject()).isTrue();
    }
  }

  @Test
  void aLineThatIsNotUtf8IsRefusedNamingTheByteAndTheToolIsNotCalled() throws Exception {
    try (StdioHarness s = new StdioHarness().initialized()) {
      String call =
          "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
              + "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a";
      byte[] head = call.getBytes(StandardCharsets.UTF_8);
      byte[] tail = "b\"}}}\n".getBytes(StandardCharsets.UTF_8);
      // An overlong '/' (C0 AF), then CESU-8 (an encoded surrogate, ED A0 80), inside the text.
      for (byte[] bad :
          new byte[][] {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}}) {
        byte[] line = new byte[head.length + bad.length + tail.length];
        System.arraycopy(head, 0, line, 0, head.length);
        System.arraycopy(bad, 0, line, head.length, bad.length);
        System.arraycopy(tail, 0, line, head.length + bad.length, tail.length);
        s.sendBytes(line);
        JsonNode refused = s.next();
        assertError(refused, null, -32700, "is not UTF-8 at byte " + head.length);
        assertThat(refused.at("/error/message").asText()).contains("send each message in UTF-8");
      }
      // The next line is read as ever, and the text arrives exactly as sent.
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\","
              + "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a\u2014b\"}}}");
      assertThat(s.answerTo(8).toString()).contains("a\u2014b").doesNotContain("\ufffd");
    }
  }

  @Test
  void parseErrorsAreToldInWordsWithoutTheJsonLibrarysNames() throws Exception {
    try (StdioHarness s = new StdioHarness().initialized()) {
      String deep = "{\"x\":" + "[".repeat(1500) + "]".repeat(1500) + "}";
      s.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":" + deep + "}");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"");
      s.send(PING + PING);
      s.send("{\"x\":\"" + "x".repeat(21_000_000) + "\"}");
      List<String> messages = new java.util.ArrayList<>();
      for (int i = 0; i < 4; i++) {
        JsonNode answer = s.next();
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32700);
        messages.add(answer.at("/error/message").asText());
      }
      assertThat(messages)
          .allSatisfy(
              m ->
                  assertThat(m)
                      .startsWith("parse error: the message is not valid JSON")
                      .doesNotContain("`", "jackson", "StreamRead", "Source:", "Feature"));
      assertThat(messages.get(0))
          .contains("nesting depth (1001) exceeds the maximum allowed (1000)");
      assertThat(messages.get(2)).contains("more follows the first JSON value");
    }
  }

  @Test
  void invalidRequestsAreAnsweredWithTheirIdAndTheNextCallStillWorks() throws Exception {
    try (StdioHarness s = new StdioHarness().initialized()) {
      s.send("{\"jsonrpc\":\"1.0\",\"id\":9,\"method\":\"ping\"}");
      assertError(s.next(), 9, -32600, "\"jsonrpc\" must be \"2.0\", got \"1.0\"");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":[\"echo\"]}");
      assertError(s.next(), 10, -32602, "\"params\" must be an object, got an array");
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\","
              + "\"params\":{\"name\":\"echo\",\"arguments\":\"text=hi\"}}");
      assertError(s.next(), 11, -32602, "\"arguments\" must be an object, got a string");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\"}");
      assertError(s.next(), 12, -32602, "tools/call needs \"params\"");
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":\"13\",\"method\":\"tools/call\","
              + "\"params\":{\"name\":\"ecoh\",\"arguments\":{}}}");
      assertError(
          s.next(), "13", -32602, "unknown tool 'ecoh'; this agent's tools are: echo, greet");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}");
      assertError(s.next(), null, -32600, "\"id\" must be a string or an integer");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"logging/setLevel\",\"params\":{}}");
      assertError(s.next(), 14, -32602, "\"level\" must be one of");
      // fields of a mistyped type: named (before: -32603 pointing at the server's log)
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":141,\"method\":\"tools/call\",\"params\":"
              + "{\"name\":\"greet\",\"arguments\":{},\"_meta\":\"x\"}}");
      assertError(
          s.next(),
          141,
          -32602,
          "tools/call: \"params._meta\" has a value of the wrong type (a string)");
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":142,\"method\":\"initialize\",\"params\":{"
              + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"roots\":"
              + "{\"listChanged\":\"yes\"}},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
      assertError(
          s.next(),
          142,
          -32602,
          "initialize: \"params.capabilities.roots.listChanged\" has a value of the wrong type"
              + " (a string)");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"resources/list\"}");
      JsonNode unknown = s.answerTo(15);
      assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32601);
      // A notification with bad params gets nothing; the next request its answer.
      s.send("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":[]}");
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"tools/call\","
              + "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}}}");
      JsonNode echoed = s.next();
      assertThat(echoed.path("id").asInt()).isEqualTo(16);
      assertThat(echoed.at("/result/content/0/text").asText()).isEqualTo("<echo said=\"hi\"/>");
    }
  }

  @Test
  void toolResultsCarryStructuredContentMatchingTheirText() throws Exception {
    try (StdioHarness s = new StdioHarness().initialized()) {
      s.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
      JsonNode tools = s.answerTo(1).at("/result/tools");
      assertThat(tools).hasSize(2);
      for (JsonNode tool : tools) {
        assertThat(tool.at("/outputSchema/required").toString()).isEqualTo("[\"text\",\"error\"]");
      }
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
              + "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a \\\"b\\\"\"}}}");
      JsonNode echo = s.answerTo(2).path("result");
      assertThat(echo.at("/structuredContent/text").asText())
          .isEqualTo(echo.at("/content/0/text").asText());
      assertThat(echo.at("/structuredContent/element/element").asText()).isEqualTo("echo");
      assertThat(echo.at("/structuredContent/element/attributes/said").asText())
          .isEqualTo("a \"b\"");
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
              + "\"params\":{\"name\":\"greet\",\"arguments\":{}}}");
      JsonNode greet = s.answerTo(3).path("result");
      assertThat(greet.at("/structuredContent/text").asText()).isEqualTo("Ave, vorenus.");
      assertThat(greet.path("structuredContent").has("element")).isFalse();
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\","
              + "\"params\":{\"name\":\"echo\",\"arguments\":{}}}");
      JsonNode refused = s.answerTo(4).path("result");
      assertThat(refused.path("isError").asBoolean()).isTrue();
      assertThat(refused.at("/structuredContent/error").asBoolean()).isTrue();
      assertThat(refused.at("/structuredContent/text").asText()).contains("text");
    }
  }

  @Test
  void theServerEndsWithinASecondOfStdinClosingAfterAnsweringWhatItRead() throws Exception {
    StdioHarness s = new StdioHarness().initialized();
    s.send(PING);
    s.send("hello");
    s.send(
        "{\"jsonrpc\":\"2.0\",\"id\":43,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"greet\",\"arguments\":{}}}");
    Duration took = s.closeStdin();
    assertThat(took).isLessThan(Duration.ofSeconds(1));
    assertThat(s.answerTo(43).at("/result/content/0/text").asText()).isEqualTo("Ave, vorenus.");
    assertThat(s.answerTo(42).has("result")).isTrue();
    assertThat(s.seen()).anyMatch(l -> l.contains("-32700"));
  }

  @Test
  void aCallStillRunningWhenStdinClosesIsAnsweredOnceEvenWhenItFinishesAfter() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Toolset slow = holding(release);
    // The server's stdout lets the tool finish the moment the "stdin closed" error is written,
    // and holds that write a while: the tool's result is then ready while the error goes out.
    // It closes late too, so that a result written after the error would be seen.
    StdioHarness s =
        new StdioHarness(
                slow,
                pipe ->
                    new FilterOutputStream(pipe) {
                      @Override
                      public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                        if (new String(b, off, len, StandardCharsets.UTF_8)
                            .contains("stdin closed")) {
                          release.countDown();
                          pause();
                        }
                      }

                      @Override
                      public void close() throws IOException {
                        pause(); // a late line still reaches the test
                        super.close();
                      }
                    })
            .initialized();
    s.send(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"hold\",\"arguments\":{}}}");
    Thread.sleep(100); // the call is running

    s.closeStdin();
    assertError(s.answerTo(7), 7, -32603, "stdin closed while 'tools/call' was still running");
    while (s.poll() != null) {
      // read whatever else came
    }
    assertThat(s.seen().stream().filter(l -> l.contains("\"id\":7")))
        .as("JSON-RPC allows one response per id")
        .hasSize(1);
  }

  @Test
  void aSecondRequestWithTheIdOfOneStillRunningIsRefusedAndTheFirstIsAnswered() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Toolset slow = holding(release);
    try (StdioHarness s = new StdioHarness(slow, out -> out).initialized()) {
      String call =
          "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\","
              + "\"params\":{\"name\":\"hold\",\"arguments\":{}}}";
      s.send(call);
      Thread.sleep(100);
      s.send(call);
      assertError(s.next(), 8, -32600, "id 8 is already used by a request still running");
      release.countDown();
      assertThat(s.next().at("/result/content/0/text").asText()).isEqualTo("done");
    }
  }

  @Test
  void aClientThatSendsEverythingAtOnceAndClosesStdinGetsEveryAnswer() throws Exception {
    StdioHarness s = new StdioHarness();
    s.send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    s.send(
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"greet\",\"arguments\":{}}}");
    s.closeStdin();

    assertThat(s.answerTo(1).has("result")).isTrue();
    assertThat(s.answerTo(9).at("/result/content/0/text").asText()).isEqualTo("Ave, vorenus.");
  }

  @Test
  void aPingBeforeInitializedIsAnsweredAndOtherRequestsAreNotLeftHanging() throws Exception {
    StdioHarness s = new StdioHarness();
    s.send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    assertThat(s.answerTo(1).at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
    s.send("hello");
    s.send(PING);
    s.send("{\"jsonrpc\":\"2.0\",\"id\":44,\"method\":\"tools/list\"}");
    assertThat(s.answerTo(42).has("result")).isTrue();
    // answered at once (before: held by the SDK's session, unanswered until stdin closed)
    assertError(s.answerTo(44), 44, -32600, "'tools/list' came before notifications/initialized");
    s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    s.send("{\"jsonrpc\":\"2.0\",\"id\":44,\"method\":\"tools/list\"}");
    assertThat(s.next().at("/result/tools/0/name").asText()).isEqualTo("echo");
    Duration took = s.closeStdin();
    assertThat(took).isLessThan(Duration.ofSeconds(1));
  }

  @Test
  void aRequestBeforeInitializeIsToldToInitializeFirst() throws Exception {
    try (StdioHarness s = new StdioHarness()) {
      s.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
      assertError(s.answerTo(1), 1, -32600, "'tools/list' came before initialize: send initialize");
    }
  }

  @Test
  void anUnsupportedProtocolVersionIsAnsweredWithTheLatest() throws Exception {
    try (StdioHarness s = new StdioHarness()) {
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
              + "\"protocolVersion\":\"1999-01-01\",\"capabilities\":{},"
              + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
      assertThat(s.answerTo(1).at("/result/protocolVersion").asText())
          .isEqualTo(McpVersions.SUPPORTED.getLast());
    }
  }

  private static void pause() {
    try {
      Thread.sleep(300);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One tool, {@code hold}, that answers "done" once {@code release} is counted down. */
  private static Toolset holding(CountDownLatch release) {
    return new Toolbox(
        "vorenus",
        List.of(
            new ToolDefinition(
                "hold",
                "Wait until the test says.",
                List.of(),
                in -> {
                  try {
                    release.await(10, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return "done";
                })));
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
