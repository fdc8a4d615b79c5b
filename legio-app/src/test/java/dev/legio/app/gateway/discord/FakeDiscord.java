package dev.legio.app.gateway.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A loopback fake of Discord's HTTP API (v10), written from its documentation: {@code GET
 * /applications/@me} and {@code POST /applications/{id}/commands} with {@code Authorization: Bot
 * TOKEN} (401 {@code {"message": "401: Unauthorized", "code": 0}} otherwise), and the interaction
 * webhooks {@code PATCH /webhooks/{id}/{token}/messages/@original} and {@code POST
 * /webhooks/{id}/{token}}, which take no authorization (a token in {@link #expiredTokens} gets 401
 * {@code Invalid Webhook Token}, code 50027); {@code POST /channels/{id}/messages} with the bot
 * token (403 {@code Missing Access} for a channel in {@link #closedChannels}); a 429 with the JSON
 * {@code retry_after} (fractional seconds) and the {@code Retry-After} header, and 5xx, as the test
 * queues them. A message's {@code allowed_mentions} is kept with it ({@link Call#allowedMentions})
 * and checked as Discord documents it: {@code users} holds at most 100 snowflakes, as strings, and
 * never comes with {@code "users"} in {@code parse} (400 {@code Invalid Form Body}, code 50035,
 * otherwise).
 */
final class FakeDiscord implements AutoCloseable {
  static final String TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.bot-token-for-tests";
  static final String APPLICATION = "123456789012345678";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One call as received. */
  record Call(String method, String path, String authorization, JsonNode body) {
    /** The message's {@code allowed_mentions}, as sent (a missing node when it had none). */
    JsonNode allowedMentions() {
      return body.path("allowed_mentions");
    }

    /** The users the message may ping: those its {@code allowed_mentions} lists. */
    List<String> pingedUsers() {
      List<String> users = new java.util.ArrayList<>();
      allowedMentions().path("users").forEach(u -> users.add(u.asText()));
      return users;
    }
  }

  /** A canned failure: an HTTP status and, for 429, {@code retry_after} in seconds. */
  record Failure(int status, Double retryAfter) {}

  final List<Call> calls = new CopyOnWriteArrayList<>();
  final BlockingQueue<Call> messages = new LinkedBlockingQueue<>();
  final Deque<Failure> failures = new ConcurrentLinkedDeque<>();
  volatile String applicationOfToken = APPLICATION;
  final java.util.Set<String> expiredTokens = java.util.concurrent.ConcurrentHashMap.newKeySet();
  final java.util.Set<String> closedChannels = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** How many of the next channel messages get a proxy's 403 page instead of Discord's answer. */
  final java.util.concurrent.atomic.AtomicInteger proxyPages =
      new java.util.concurrent.atomic.AtomicInteger();

  private final HttpServer server;

  FakeDiscord() throws IOException {
    this(0);
  }

  /** A fake on {@code port} (0: a free one). */
  FakeDiscord(int port) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/api/v10/", this::handle);
    server.start();
  }

  String apiUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/api/v10";
  }

  /** The next message sent, through an interaction's webhook or in a channel, waiting for it. */
  Call nextMessage() throws InterruptedException {
    Call call = messages.poll(30, TimeUnit.SECONDS);
    if (call == null) {
      throw new AssertionError("no webhook message within 30 s; calls: " + calls);
    }
    return call;
  }

  Call messageWithin(Duration wait) throws InterruptedException {
    return messages.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  long webhookCalls() {
    return calls.stream().filter(c -> c.path().startsWith("/webhooks/")).count();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getRawPath().substring("/api/v10".length());
    String method = exchange.getRequestMethod();
    byte[] raw = exchange.getRequestBody().readAllBytes();
    JsonNode body = raw.length == 0 ? JSON.createObjectNode() : JSON.readTree(raw);
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    Call call = new Call(method, path, auth, body);
    calls.add(call);
    Failure failure = failures.poll();
    if (failure != null) {
      if (failure.retryAfter() != null) {
        exchange
            .getResponseHeaders()
            .add("Retry-After", Long.toString((long) Math.ceil(failure.retryAfter())));
        reply(
            exchange,
            failure.status(),
            "{\"message\":\"You are being rate limited.\",\"retry_after\":"
                + failure.retryAfter()
                + ",\"global\":false}");
      } else {
        reply(exchange, failure.status(), "{\"message\":\"Internal Server Error\",\"code\":0}");
      }
      return;
    }
    String invalid = invalidMentions(body);
    if (invalid != null) {
      reply(
          exchange,
          400,
          "{\"message\":\"Invalid Form Body\",\"code\":50035,\"errors\":"
              + JSON.writeValueAsString(invalid)
              + "}");
      return;
    }
    String webhookPrefix = "/webhooks/" + APPLICATION + "/";
    if (path.startsWith(webhookPrefix)) {
      String token = path.substring(webhookPrefix.length()).split("/")[0];
      if (expiredTokens.contains(token)) {
        reply(exchange, 401, "{\"message\":\"Invalid Webhook Token\",\"code\":50027}");
        return;
      }
      messages.add(call);
      reply(
          exchange,
          200,
          "{\"id\":\"" + System.nanoTime() + "\",\"content\":" + body.path("content") + "}");
      return;
    }
    if (!("Bot " + TOKEN).equals(auth)) {
      reply(exchange, 401, "{\"message\":\"401: Unauthorized\",\"code\":0}");
      return;
    }
    java.util.regex.Matcher channel =
        java.util.regex.Pattern.compile("/channels/(\\d+)/messages").matcher(path);
    if (method.equals("POST") && channel.matches()) {
      if (proxyPages.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        byte[] page = "<html><body>403 Forbidden by the proxy</body></html>".getBytes();
        exchange.getResponseHeaders().set("Content-Type", "text/html");
        exchange.sendResponseHeaders(403, page.length);
        exchange.getResponseBody().write(page);
        exchange.close();
        return;
      }
      if (closedChannels.contains(channel.group(1))) {
        reply(exchange, 403, "{\"message\":\"Missing Access\",\"code\":50001}");
        return;
      }
      messages.add(call);
      reply(
          exchange,
          200,
          "{\"id\":\""
              + System.nanoTime()
              + "\",\"channel_id\":\""
              + channel.group(1)
              + "\",\"content\":"
              + body.path("content")
              + "}");
      return;
    }
    if (method.equals("GET") && path.equals("/applications/@me")) {
      reply(exchange, 200, "{\"id\":\"" + applicationOfToken + "\",\"name\":\"Legio\"}");
    } else if (method.equals("POST") && path.equals("/applications/" + APPLICATION + "/commands")) {
      reply(exchange, 201, "{\"id\":\"555\",\"application_id\":\"" + APPLICATION + "\"}");
    } else {
      reply(exchange, 404, "{\"message\":\"404: Not Found\",\"code\":0}");
    }
  }

  /** What Discord would refuse in the message's {@code allowed_mentions}; null when nothing. */
  private static String invalidMentions(JsonNode body) {
    JsonNode allowed = body.path("allowed_mentions");
    if (allowed.isMissingNode()) {
      return null;
    }
    JsonNode users = allowed.path("users");
    if (users.isMissingNode()) {
      return null;
    }
    if (!users.isArray() || users.size() > 100) {
      return "users: at most 100";
    }
    for (JsonNode user : users) {
      if (!user.isTextual() || !user.asText().matches("[0-9]{1,20}")) {
        return "users: not a snowflake: " + user;
      }
    }
    for (JsonNode kind : allowed.path("parse")) {
      if (kind.asText().equals("users")) {
        return "parse:[\"users\"] and users: [ids] are mutually exclusive";
      }
    }
    return null;
  }

  private static void reply(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
