package dev.legio.app.gateway.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback Telegram Bot API, written from https://core.telegram.org/bots/api: requests are {@code
 * POST /bot<token>/<method>} with a JSON body; answers are {@code {"ok":true,"result":...}} or
 * {@code {"ok":false,"error_code":N,"description":"..."[,"parameters":{"retry_after":S}]}}.
 *
 * <ul>
 *   <li>A wrong token gets 401 {@code Unauthorized}, as Telegram answers.
 *   <li>{@code getUpdates(offset, timeout)}: updates with an id below {@code offset} are confirmed
 *       and forgotten; the rest are returned, waiting up to {@code timeout} seconds for one. While
 *       a webhook is set, getUpdates is refused with 409.
 *   <li>{@code sendMessage}: with {@code parse_mode HTML}, only Telegram's tags and the entities
 *       {@code &lt; &gt; &amp; &quot;} are accepted, tags must nest, and the text after parsing
 *       must be 1 to 4096 characters (400 otherwise, as Telegram answers).
 *   <li>Failures can be scripted per method ({@link #failNext}).
 * </ul>
 */
final class FakeTelegram implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern PATH = Pattern.compile("^/bot([^/]+)/([A-Za-z]+)$");
  private static final Pattern TAG =
      Pattern.compile(
          "<(/?)(b|strong|i|em|u|ins|s|strike|del|code|pre|a|tg-spoiler|blockquote)(\\s[^>]*)?>");

  record Sent(String chatId, String text, String parseMode, Instant at) {}

  record Call(String method, JsonNode params, Instant at) {}

  private final String token;
  private final HttpServer server;
  private final List<ObjectNode> updates = new ArrayList<>();
  private long nextUpdateId = 1000;
  final List<Sent> sent = new CopyOnWriteArrayList<>();
  final List<String> actions = new CopyOnWriteArrayList<>();
  final List<Call> calls = new CopyOnWriteArrayList<>();
  final List<Long> offsets = new CopyOnWriteArrayList<>();
  private final Map<String, Deque<ObjectNode>> failures = new ConcurrentHashMap<>();
  volatile String webhookUrl;
  volatile String webhookSecret;

  FakeTelegram(String token) throws IOException {
    this(token, 0);
  }

  FakeTelegram(String token, int port) throws IOException {
    this.token = token;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** A user's text message in a chat, as an update; returns its update_id. */
  synchronized long userWrites(
      long chatId, String chatType, long userId, String name, String text) {
    ObjectNode u = JSON.createObjectNode();
    long id = nextUpdateId++;
    u.put("update_id", id);
    ObjectNode m = u.putObject("message");
    m.put("message_id", id);
    m.put("date", Instant.now().getEpochSecond());
    m.putObject("chat").put("id", chatId).put("type", chatType);
    m.putObject("from").put("id", userId).put("is_bot", false).put("first_name", name);
    m.put("text", text);
    updates.add(u);
    notifyAll();
    return id;
  }

  /**
   * Offers {@code update} again, as Telegram does for an update whose offset was never confirmed
   * (the poller was killed during its turn).
   */
  synchronized void deliverAgain(ObjectNode update) {
    updates.add(update.deepCopy());
    notifyAll();
  }

  /** The update as Telegram would post it to a webhook. */
  synchronized ObjectNode update(long id) {
    return updates.stream()
        .filter(u -> u.get("update_id").asLong() == id)
        .findFirst()
        .orElseThrow()
        .deepCopy();
  }

  /** The next {@code times} calls of {@code method} fail with {@code status}. */
  void failNext(String method, int times, int status, String description, Integer retryAfter) {
    Deque<ObjectNode> queue = failures.computeIfAbsent(method, m -> new ArrayDeque<>());
    for (int i = 0; i < times; i++) {
      ObjectNode e = JSON.createObjectNode();
      e.put("ok", false);
      e.put("error_code", status);
      e.put("description", description);
      if (retryAfter != null) {
        e.putObject("parameters").put("retry_after", retryAfter);
      }
      synchronized (queue) {
        queue.add(e);
      }
    }
  }

  /**
   * The next {@code times} calls of {@code method} get {@code status} with {@code page}, not a Bot
   * API answer: what a proxy or a wrong {@code api_url} answers.
   */
  void answerNotAsTheBotApi(String method, int times, int status, String page) {
    Deque<ObjectNode> queue = failures.computeIfAbsent(method, m -> new ArrayDeque<>());
    for (int i = 0; i < times; i++) {
      ObjectNode e = JSON.createObjectNode();
      e.put("error_code", status);
      e.put("page", page);
      synchronized (queue) {
        queue.add(e);
      }
    }
  }

  /** Forgets every scripted failure. */
  void clearFailures() {
    failures.clear();
  }

  List<Sent> sentTo(String chatId) {
    return sent.stream().filter(s -> s.chatId().equals(chatId)).toList();
  }

  List<Call> calls(String method) {
    return calls.stream().filter(c -> c.method().equals(method)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Matcher m = PATH.matcher(exchange.getRequestURI().getPath());
      if (!m.matches()) {
        reply(exchange, 404, error(404, "Not Found", null));
        return;
      }
      if (!m.group(1).equals(token)) {
        reply(exchange, 401, error(401, "Unauthorized", null));
        return;
      }
      String method = m.group(2);
      byte[] body = exchange.getRequestBody().readAllBytes();
      JsonNode params = body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
      calls.add(new Call(method, params, Instant.now()));
      Deque<ObjectNode> queue = failures.get(method);
      ObjectNode failure = null;
      if (queue != null) {
        synchronized (queue) {
          failure = queue.poll();
        }
      }
      if (failure != null && failure.has("page")) {
        byte[] page =
            failure.get("page").asText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html");
        exchange.sendResponseHeaders(failure.get("error_code").asInt(), page.length);
        exchange.getResponseBody().write(page);
        return;
      }
      if (failure != null) {
        reply(exchange, failure.get("error_code").asInt(), failure);
        return;
      }
      switch (method) {
        case "getMe" ->
            ok(
                exchange,
                JSON.createObjectNode()
                    .put("id", 4242)
                    .put("is_bot", true)
                    .put("username", "legio_bot"));
        case "getUpdates" -> getUpdates(exchange, params);
        case "sendMessage" -> sendMessage(exchange, params);
        case "sendChatAction" -> {
          actions.add(params.path("chat_id").asText() + ":" + params.path("action").asText());
          ok(exchange, JSON.getNodeFactory().booleanNode(true));
        }
        case "setWebhook" -> {
          webhookUrl = params.path("url").asText();
          webhookSecret = params.path("secret_token").asText(null);
          ok(exchange, JSON.getNodeFactory().booleanNode(true));
        }
        case "deleteWebhook" -> {
          webhookUrl = null;
          ok(exchange, JSON.getNodeFactory().booleanNode(true));
        }
        default -> reply(exchange, 404, error(404, "Not Found: method not found", null));
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
    }
  }

  private void getUpdates(HttpExchange exchange, JsonNode params) throws IOException {
    if (webhookUrl != null) {
      reply(
          exchange,
          409,
          error(409, "Conflict: can't use getUpdates method while webhook is active", null));
      return;
    }
    long offset = params.path("offset").asLong(0);
    int timeout = params.path("timeout").asInt(0);
    offsets.add(offset);
    ArrayNode result = JSON.createArrayNode();
    long deadline = System.nanoTime() + Duration.ofSeconds(timeout).toNanos();
    synchronized (this) {
      updates.removeIf(u -> u.get("update_id").asLong() < offset); // confirmed
      while (updates.isEmpty() && System.nanoTime() < deadline) {
        try {
          wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      updates.forEach(u -> result.add(u.deepCopy()));
    }
    ok(exchange, result);
  }

  private void sendMessage(HttpExchange exchange, JsonNode params) throws IOException {
    String text = params.path("text").asText("");
    String mode = params.path("parse_mode").asText(null);
    String visible = text;
    if ("HTML".equals(mode)) {
      visible = parseHtml(text);
      if (visible == null) {
        reply(
            exchange,
            400,
            error(400, "Bad Request: can't parse entities: unsupported start tag", null));
        return;
      }
    }
    if (visible.isBlank()) {
      reply(exchange, 400, error(400, "Bad Request: message text is empty", null));
      return;
    }
    if (visible.length() > 4096) {
      reply(exchange, 400, error(400, "Bad Request: message is too long", null));
      return;
    }
    sent.add(new Sent(params.path("chat_id").asText(), text, mode, Instant.now()));
    ok(exchange, JSON.createObjectNode().put("message_id", sent.size()).put("text", visible));
  }

  /** The text Telegram would show for {@code html}, or null when it would refuse to parse it. */
  static String parseHtml(String html) {
    StringBuilder visible = new StringBuilder();
    Deque<String> open = new ArrayDeque<>();
    int i = 0;
    while (i < html.length()) {
      char c = html.charAt(i);
      if (c == '<') {
        Matcher t = TAG.matcher(html).region(i, html.length());
        if (!t.lookingAt()) {
          return null;
        }
        if (t.group(1).isEmpty()) {
          open.push(t.group(2));
        } else if (open.isEmpty() || !open.pop().equals(t.group(2))) {
          return null;
        }
        i = t.end();
      } else if (c == '&') {
        int semi = html.indexOf(';', i);
        String entity = semi < 0 ? "" : html.substring(i, semi + 1);
        switch (entity) {
          case "&lt;" -> visible.append('<');
          case "&gt;" -> visible.append('>');
          case "&amp;" -> visible.append('&');
          case "&quot;" -> visible.append('"');
          default -> {
            return null;
          }
        }
        i = semi + 1;
      } else if (c == '>') {
        return null;
      } else {
        visible.append(c);
        i++;
      }
    }
    return open.isEmpty() ? visible.toString() : null;
  }

  private static ObjectNode error(int code, String description, Integer retryAfter) {
    ObjectNode e = JSON.createObjectNode();
    e.put("ok", false);
    e.put("error_code", code);
    e.put("description", description);
    if (retryAfter != null) {
      e.putObject("parameters").put("retry_after", retryAfter);
    }
    return e;
  }

  private static void ok(HttpExchange exchange, JsonNode result) throws IOException {
    ObjectNode body = JSON.createObjectNode();
    body.put("ok", true);
    body.set("result", result);
    reply(exchange, 200, body);
  }

  private static void reply(HttpExchange exchange, int status, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    synchronized (this) {
      notifyAll();
    }
    server.stop(0);
  }
}
