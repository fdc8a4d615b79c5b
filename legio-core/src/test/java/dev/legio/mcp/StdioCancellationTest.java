package dev.legio.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.HoldingTool;
import dev.legio.testing.LogCapture;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code notifications/cancelled} over stdio ({@link StdioTransport}, {@link Cancellation}). */
class StdioCancellationTest {
  /** A reason that would forge a log line if logged as it is. */
  static final String HOSTILE = "user stop\n2026-01-01 ERROR forged line";

  static String call(Object id, String tool) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + StdioHarness.JSON.valueToTree(id)
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool
        + "\",\"arguments\":{}}}";
  }

  static String cancel(Object id, String reason) throws Exception {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
        + "\"requestId\":"
        + StdioHarness.JSON.valueToTree(id)
        + (reason == null ? "" : ",\"reason\":" + StdioHarness.JSON.writeValueAsString(reason))
        + "}}";
  }

  @Test
  void aRunningCallIsInterruptedAndNeverAnsweredAndTheReasonIsLoggedQuoted() throws Exception {
    HoldingTool hold = new HoldingTool();
    try (LogCapture legio = new LogCapture();
        LogCapture sdk = new LogCapture("io.modelcontextprotocol")) {
      StdioHarness s = new StdioHarness(hold.tools(), out -> out).initialized();
      s.send(call(7, "hold"));
      assertThat(hold.began.await(5, TimeUnit.SECONDS)).isTrue();

      s.send(cancel(7, HOSTILE));

      assertThat(hold.interrupted.await(5, TimeUnit.SECONDS))
          .as("the tool's thread is interrupted (before: the call ran on until it ended)")
          .isTrue();
      s.send(StdioTransportTest.PING);
      assertThat(s.answerTo(42).has("result")).isTrue();
      s.closeStdin(); // before: the call still running got -32603 "stdin closed while ..."
      while (s.poll() != null) {
        // read whatever else came
      }
      assertThat(s.seen()).noneMatch(l -> l.contains("\"id\":7"));
      assertThat(legio.text()).contains("the client cancelled request 7");
      assertThat(legio.text() + sdk.text())
          .as("no log line forged by the client's reason")
          .doesNotContain("\n2026-01-01 ERROR forged");
    }
  }

  @Test
  void aCallCancelledAtOnceIsNeverAnsweredAndDoesNotRunOn() throws Exception {
    HoldingTool hold = new HoldingTool();
    StdioHarness s = new StdioHarness(hold.tools(), out -> out).initialized();
    s.sendBytes(StdioTransportTest.utf8(call("c1", "hold") + "\n" + cancel("c1", null) + "\n"));
    s.send(StdioTransportTest.PING);
    assertThat(s.answerTo(42).has("result")).isTrue();

    s.closeStdin();
    while (s.poll() != null) {
      // read whatever else came
    }
    assertThat(s.seen()).noneMatch(l -> l.contains("\"c1\""));
    if (hold.runs.get() > 0) { // it began before the cancellation came: it was interrupted
      assertThat(hold.interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aToolCallCancelledBeforeItBeginsNeverRuns() {
    HoldingTool hold = new HoldingTool();
    SyncToolSpecification spec = McpToolServer.specifications(hold.tools()).getFirst();
    RunningCall call = new RunningCall();
    call.cancel();
    McpTransportContext context = call.context().get(McpTransportContext.KEY);
    McpSyncServerExchange exchange =
        new McpSyncServerExchange(new McpAsyncServerExchange("s", null, null, null, context));

    McpSchema.CallToolResult result =
        spec.callHandler()
            .apply(exchange, McpSchema.CallToolRequest.builder().name("hold").build());

    assertThat(hold.runs.get()).isZero();
    assertThat(result.isError()).isTrue();
  }

  @Test
  void anInterruptACancellationSetDoesNotOutliveItsCall() throws Exception {
    HoldingTool hold = new HoldingTool();
    SyncToolSpecification spec = McpToolServer.specifications(hold.tools()).getFirst();
    RunningCall call = new RunningCall();
    McpSyncServerExchange exchange =
        new McpSyncServerExchange(
            new McpAsyncServerExchange(
                "s", null, null, null, call.context().get(McpTransportContext.KEY)));
    boolean[] interruptedAfter = {true};
    Thread runner =
        Thread.ofPlatform()
            .start(
                () -> {
                  spec.callHandler()
                      .apply(exchange, McpSchema.CallToolRequest.builder().name("hold").build());
                  interruptedAfter[0] = Thread.currentThread().isInterrupted();
                });
    assertThat(hold.began.await(5, TimeUnit.SECONDS)).isTrue();

    assertThat(call.cancel()).isTrue();
    runner.join(5000);

    assertThat(hold.interrupted.getCount()).isZero();
    assertThat(interruptedAfter[0]).as("the pool thread's next task sees no interrupt").isFalse();
    assertThat(call.cancel()).as("a second cancellation changes nothing").isFalse();
  }

  @Test
  void unknownFinishedOrMalformedCancellationsAndInitializeAreIgnored() throws Exception {
    HoldingTool hold = new HoldingTool();
    StdioHarness s = new StdioHarness(hold.tools(), out -> out);
    // initialize cannot be cancelled
    s.sendBytes(
        StdioTransportTest.utf8(
            "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}\n"
                + cancel("init", "changed my mind")
                + "\n"));
    assertThat(s.answerTo("init").has("result")).isTrue();
    s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    s.send(call(5, "greet"));
    assertThat(s.answerTo(5).at("/result/content/0/text").asText()).isEqualTo("Ave, vorenus.");

    s.send(cancel(5, null)); // finished
    s.send(cancel(99, null)); // never sent
    s.send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
            + "{\"x\":1}}}");
    s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}");
    s.send(call(6, "greet"));

    assertThat(s.next().path("id").asInt()).as("nothing answers a notification").isEqualTo(6);
    s.closeStdin();
  }
}
