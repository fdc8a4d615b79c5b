package dev.legio.app.gateway.slack;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A loopback fake of Slack's Web API, written from its documentation of {@code auth.test} and
 * {@code chat.postMessage}: methods at {@code /api/METHOD}, parameters form-encoded (or JSON), the
 * token as {@code Authorization: Bearer}; answers {@code {"ok": true, ...}}, or {@code {"ok":
 * false, "error": "invalid_auth"}} for another token; HTTP 429 with {@code Retry-After} and 5xx as
 * the test queues them.
 */
final class FakeSlack implements AutoCloseable {
  static final String TOKEN = "xoxb-test-bot-token";
  static final String BOT_USER = "U0BOT";

  /** One call as received: its parameters decoded, and its body as sent. */
  record Call(
      String method, String authorization, Map<String, String> params, String body, Instant at) {}

  /** A canned failure: an HTTP status and, for 429, the Retry-After header. */
  record Failure(int status, String retryAfter) {}

  final List<Call> calls = new CopyOnWriteArrayList<>();
  final BlockingQueue<Call> posted = new LinkedBlockingQueue<>();
  final Deque<Failure> failures = new ConcurrentLinkedDeque<>();

  /** Channels chat.postMessage refuses with {@code channel_not_found}, as for one the app left. */
  final java.util.Set<String> goneChannels = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Pages a proxy answers in Slack's place, one per call, before the calls reach the fake. */
  final Deque<Failure> proxyPages = new ConcurrentLinkedDeque<>();

  private final HttpServer server;

  FakeSlack() throws IOException {
    this(0);
  }

  /** A fake on {@code port} (0: a free one). */
  FakeSlack(int port) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/api/", this::handle);
    server.start();
  }

  String apiUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/api";
  }

  /** The next chat.postMessage, waiting for it. */
  Call nextPost() throws InterruptedException {
    Call call = posted.poll(30, TimeUnit.SECONDS);
    if (call == null) {
      throw new AssertionError("no chat.postMessage within 30 s; calls: " + calls);
    }
    return call;
  }

  /** The next chat.postMessage if one comes within {@code wait}, else null. */
  Call postWithin(Duration wait) throws InterruptedException {
    return posted.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  long calls(String method) {
    return calls.stream().filter(c -> c.method().equals(method)).count();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestURI().getPath().substring("/api/".length());
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Map<String, String> params = new LinkedHashMap<>();
    String type = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
    if (type.startsWith("application/json")) {
      new ObjectMapper()
          .readTree(body)
          .fields()
          .forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
    } else {
      for (String pair : body.split("&")) {
        if (!pair.isEmpty()) {
          int eq = pair.indexOf('=');
          params.put(
              URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    Call call = new Call(method, auth, params, body, Instant.now());
    calls.add(call);
    Failure page = proxyPages.poll();
    if (page != null) {
      byte[] html =
          "<html><body>Blocked by the proxy</body></html>".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "text/html");
      exchange.sendResponseHeaders(page.status(), html.length);
      exchange.getResponseBody().write(html);
      exchange.close();
      return;
    }
    Failure failure = failures.poll();
    if (failure != null) {
      if (failure.retryAfter() != null) {
        exchange.getResponseHeaders().add("Retry-After", failure.retryAfter());
      }
      reply(exchange, failure.status(), "{\"ok\":false,\"error\":\"ratelimited\"}");
      return;
    }
    if (!("Bearer " + TOKEN).equals(auth)) {
      reply(exchange, 200, "{\"ok\":false,\"error\":\"invalid_auth\"}");
      return;
    }
    switch (method) {
      case "auth.test" ->
          reply(
              exchange,
              200,
              "{\"ok\":true,\"url\":\"https://legion.slack.com/\",\"team\":\"Legion\",\"user\":"
                  + "\"legio\",\"team_id\":\"T1\",\"user_id\":\""
                  + BOT_USER
                  + "\",\"bot_id\":\"B1\"}");
      case "chat.postMessage" -> {
        if (goneChannels.contains(params.get("channel"))) {
          reply(exchange, 200, "{\"ok\":false,\"error\":\"channel_not_found\"}");
          return;
        }
        posted.add(call);
        reply(
            exchange,
            200,
            "{\"ok\":true,\"channel\":\""
                + params.get("channel")
                + "\",\"ts\":\""
                + System.nanoTime()
                + "\",\"message\":{\"text\":\"x\"}}");
      }
      default -> reply(exchange, 200, "{\"ok\":false,\"error\":\"unknown_method\"}");
    }
  }

  private static void reply(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
