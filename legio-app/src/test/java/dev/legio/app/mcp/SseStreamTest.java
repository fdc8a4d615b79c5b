package dev.legio.app.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SseStreamTest {
  @Test
  void addingAnEventAndFinishingNeverWaitForAConnectionStuckWriting() throws Exception {
    SseStream stream = new SseStream("s1", 7, "tools/call");
    StuckClient client = new StuckClient();
    Thread carrier = Thread.ofPlatform().start(() -> stream.carry(client, 0));
    assertThat(client.writing.await(5, TimeUnit.SECONDS)).isTrue(); // stuck in the priming event

    CompletableFuture<Void> added =
        CompletableFuture.runAsync(
            () -> {
              stream.append(notification("working"));
              stream.append(new McpSchema.JSONRPCResponse("2.0", 7, Map.of("done", true), null));
            });
    // Before: the carrying thread held the stream's lock while it wrote, so these waited for the
    // client (in a server, for as long as the idle timeout let the write hang).
    added.get(5, TimeUnit.SECONDS);
    assertThat(stream.answered()).isTrue();

    client.release.countDown();
    carrier.join(5_000);
    assertThat(carrier.isAlive()).isFalse();
    assertThat(client.text())
        .startsWith("id: s1.0\nretry: 1000\ndata: \n\n")
        .contains("id: s1.1\nevent: message\ndata: {")
        .contains("\"working\"")
        .endsWith("\"result\":{\"done\":true}}\n\n")
        .contains("id: s1.2\n");
  }

  @Test
  void aConnectionTakingTheStreamOverStopsTheOneBeforeAtOnce() throws Exception {
    SseStream stream = new SseStream("g1", null, null);
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    Thread firstCarrier = Thread.ofPlatform().start(() -> stream.carry(first, Long.MAX_VALUE));
    waitFor(() -> first.size() > 0); // connected: primed, from the events after the last
    stream.append(notification("one"));
    waitFor(() -> first.toString(StandardCharsets.UTF_8).contains("\"one\""));

    ByteArrayOutputStream second = new ByteArrayOutputStream();
    Thread secondCarrier = Thread.ofPlatform().start(() -> stream.carry(second, 1));
    // Well within the keep-alive period, after which the one before would notice anyway.
    firstCarrier.join(3_000);
    assertThat(firstCarrier.isAlive()).isFalse();

    stream.append(notification("two"));
    waitFor(() -> second.toString(StandardCharsets.UTF_8).contains("\"two\""));
    assertThat(first.toString(StandardCharsets.UTF_8)).doesNotContain("\"two\"");
    assertThat(second.toString(StandardCharsets.UTF_8))
        .startsWith("id: g1.1\n")
        .doesNotContain("\"one\"");

    stream.finish();
    secondCarrier.join(5_000);
    assertThat(secondCarrier.isAlive()).isFalse();
  }

  @Test
  void aReconnectionGetsTheEventsAfterItsLastEventIdAndEndsWithTheStream() {
    SseStream stream = new SseStream("s2", "req", "tools/call");
    stream.append(notification("a"));
    stream.append(notification("b"));
    stream.append(new McpSchema.JSONRPCResponse("2.0", "req", Map.of(), null));

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    stream.carry(out, 1); // returns: the stream finished with its answer

    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).startsWith("id: s2.1\n").doesNotContain("\"a\"").contains("\"b\"");
    assertThat(text).contains("id: s2.3\nevent: message\n");
  }

  @Test
  void aConnectionThatFailsToWriteIsDroppedAndTheEventsStayForTheNext() {
    SseStream stream = new SseStream("s3", 1, "tools/call");
    OutputStream broken =
        new OutputStream() {
          @Override
          public void write(int b) throws java.io.IOException {
            throw new java.io.IOException("connection reset");
          }
        };
    stream.carry(broken, 0); // returns at once
    stream.append(new McpSchema.JSONRPCResponse("2.0", 1, Map.of(), null));

    assertThat(stream.keptChars()).isPositive();
    assertThat(stream.replays(0)).isTrue();

    ByteArrayOutputStream next = new ByteArrayOutputStream();
    stream.carry(next, 0);
    assertThat(next.toString(StandardCharsets.UTF_8)).contains("id: s3.1\nevent: message\n");
  }

  @Test
  void aFinishedStreamSentInFullKeepsNoEvents() {
    SseStream stream = new SseStream("s4", 1, "tools/call");
    stream.append(notification("x".repeat(100_000)));
    stream.append(new McpSchema.JSONRPCResponse("2.0", 1, Map.of(), null));
    assertThat(stream.keptChars()).isGreaterThan(100_000);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    stream.carry(out, 0);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("id: s4.2\n");
    assertThat(stream.keptChars()).isZero();
    assertThat(stream.replays(0)).isFalse();
    assertThat(stream.replays(2)).isTrue();
  }

  private static McpSchema.JSONRPCNotification notification(String text) {
    return new McpSchema.JSONRPCNotification(
        "2.0", "notifications/message", Map.of("level", "info", "data", text));
  }

  private static void waitFor(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 5 s").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  /** A client that stops reading: its first write blocks until released. */
  private static final class StuckClient extends OutputStream {
    final CountDownLatch writing = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      writing.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      synchronized (written) {
        written.write(b, off, len);
      }
    }

    String text() {
      synchronized (written) {
        return written.toString(StandardCharsets.UTF_8);
      }
    }
  }
}
