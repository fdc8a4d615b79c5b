package dev.legio.app.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A minimal loopback Anthropic Messages API for benchmarks: every {@code POST /v1/messages} is
 * answered at once with a short text, streamed as server-sent events when asked (the test suite's
 * {@code FakeMessagesApi} is the full fake). It adds up the time it spends answering, so that a
 * benchmark can subtract the API's share from what it measures.
 */
final class BenchMessagesApi implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final AtomicLong busyNanos = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();

  private final java.time.Duration delay;
  private volatile int echoKeyEvery;

  BenchMessagesApi() throws IOException {
    this(java.time.Duration.ZERO, 0);
  }

  /**
   * A slow or hostile API: each answer comes after {@code delay}; every {@code echoKeyEvery}-th
   * request (0: none) is refused with a 401 that echoes the API key it received in its body, its
   * headers and its message, as a misconfigured proxy would.
   */
  BenchMessagesApi(java.time.Duration delay, int echoKeyEvery) throws IOException {
    this.delay = delay;
    this.echoKeyEvery = echoKeyEvery;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** From now on every request is answered (no more refusals echoing the key). */
  void stopEchoingKey() {
    echoKeyEvery = 0;
  }

  URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  long busyNanos() {
    return busyNanos.get();
  }

  long messagesRequests() {
    return requests.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    long t0 = System.nanoTime();
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      if (!"POST".equals(exchange.getRequestMethod())
          || !"/v1/messages".equals(exchange.getRequestURI().getPath())) {
        exchange.sendResponseHeaders("HEAD".equals(exchange.getRequestMethod()) ? 200 : 404, -1);
        return;
      }
      long n = requests.incrementAndGet();
      if (echoKeyEvery > 0 && n % echoKeyEvery == 0) {
        // Every header it received (the key among them, whatever it is called), echoed back.
        StringBuilder echoed = new StringBuilder();
        exchange
            .getRequestHeaders()
            .forEach(
                (name, values) -> echoed.append(name).append(": ").append(values).append("; "));
        String key = echoed.toString().replace("\"", "'");
        byte[] refusal =
            ("{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
                    + "\"message\":\"invalid x-api-key: "
                    + key
                    + " (Authorization: Bearer "
                    + key
                    + ")\"}}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer " + key);
        exchange.sendResponseHeaders(401, refusal.length);
        exchange.getResponseBody().write(refusal);
        return;
      }
      if (!delay.isZero()) {
        try {
          Thread.sleep(delay);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      JsonNode request = JSON.readTree(body);
      String model = request.path("model").asText("claude-sonnet-4-5");
      String usage =
          "{\"input_tokens\":100,\"cache_creation_input_tokens\":0,"
              + "\"cache_read_input_tokens\":0,\"output_tokens\":5}";
      String text = "Acknowledged.";
      if (request.path("stream").asBoolean(false)) {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        event(
            out,
            "message_start",
            "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_bench\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":\""
                + model
                + "\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":"
                + usage
                + "}}");
        event(
            out,
            "content_block_start",
            "{\"type\":\"content_block_start\",\"index\":0,"
                + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
        event(
            out,
            "content_block_delta",
            "{\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\""
                + text
                + "\"}}");
        event(out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
        event(
            out,
            "message_delta",
            "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null},\"usage\":"
                + usage
                + "}");
        event(out, "message_stop", "{\"type\":\"message_stop\"}");
      } else {
        byte[] json =
            ("{\"id\":\"msg_bench\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\""
                    + model
                    + "\",\"content\":[{\"type\":\"text\",\"text\":\""
                    + text
                    + "\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":"
                    + usage
                    + "}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, json.length);
        exchange.getResponseBody().write(json);
      }
    } finally {
      busyNanos.addAndGet(System.nanoTime() - t0);
    }
  }

  private static void event(OutputStream out, String name, String data) throws IOException {
    out.write(("event: " + name + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
