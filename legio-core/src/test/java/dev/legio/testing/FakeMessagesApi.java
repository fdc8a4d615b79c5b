package dev.legio.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.legio.pricing.Tokens;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A loopback fake of the Anthropic Messages API, for testing model back-ends against the real wire
 * protocol (the Claude Code CLI, the Anthropic Java SDK, or any HTTP client).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>It listens on 127.0.0.1 on a free port; {@link #baseUrl()} is what {@code
 *       ANTHROPIC_BASE_URL} (or an SDK's base URL) should be set to.
 *   <li>Every request is recorded ({@link #requests()}): method, path, headers, raw body and the
 *       body parsed as JSON (Jackson), in arrival order.
 *   <li>{@code POST /v1/messages} is answered from the script: each request that the {@linkplain
 *       #scriptFor(Predicate) script filter} accepts (default: every messages request) takes the
 *       next {@link Reply} from the queue ({@link #enqueue}); when the queue is empty, or for a
 *       request the filter rejects, the {@linkplain #fallback(Function) fallback} answers (default:
 *       the text {@code "ok"}). A request with {@code "stream": true} gets server-sent events in
 *       the real order ({@code message_start}, {@code content_block_start}, {@code ping}, deltas
 *       including {@code input_json_delta} for tool input, {@code content_block_stop}, {@code
 *       message_delta} with usage, {@code message_stop}); any other gets the message as JSON.
 *   <li>Faults are replies too: an HTTP error with Anthropic's error body ({@link Reply#error},
 *       {@link Reply#rateLimited()}, {@link Reply#overloaded()}), an error event in the middle of a
 *       stream ({@link Reply#streamError}), a delay ({@link Reply#delayed}) or a hang that lasts
 *       until {@link #releaseHangs()} or {@link #close()} ({@link Reply#hang()}).
 *   <li>{@code HEAD} anything answers 200 with no body (clients check connectivity that way).
 *   <li>{@code POST /v1/messages/count_tokens} answers an estimate (one token per four characters
 *       of the body); {@code GET /v1/models} lists two models; anything else gets a 404 with
 *       Anthropic's error body. All of them are recorded.
 *   <li>The fake measures the time it spends answering ({@link #busyNanos()}), including scripted
 *       delays, so that benchmarks can subtract it from what they measure.
 * </ul>
 */
public final class FakeMessagesApi implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  public static final String MESSAGES_PATH = "/v1/messages";

  /** One HTTP request the fake received. {@code json} is null when the body is not JSON. */
  public record Request(
      int index,
      String method,
      String path,
      Map<String, List<String>> headers,
      String body,
      JsonNode json) {

    /** The first value of a header (case-insensitive), or null. */
    public String header(String name) {
      for (Map.Entry<String, List<String>> e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
          return e.getValue().get(0);
        }
      }
      return null;
    }

    /** True for {@code POST /v1/messages} (not count_tokens or other endpoints). */
    public boolean isMessages() {
      return "POST".equals(method) && MESSAGES_PATH.equals(path);
    }

    public boolean streaming() {
      return json != null && json.path("stream").asBoolean(false);
    }

    public String model() {
      return json == null ? null : json.path("model").asText(null);
    }

    /** The system prompt as one string (text blocks joined by newlines), or "" when none. */
    public String systemText() {
      if (json == null) {
        return "";
      }
      return textOf(json.get("system"));
    }

    /** The request's {@code messages} array (empty when absent). */
    public List<JsonNode> messages() {
      List<JsonNode> out = new ArrayList<>();
      if (json != null && json.get("messages") instanceof ArrayNode array) {
        array.forEach(out::add);
      }
      return out;
    }

    /** Whether any message of the request carries a {@code tool_result} block. */
    public boolean hasToolResult() {
      return messages().stream().anyMatch(m -> toolResultOf(m) != null);
    }

    /** The {@code tool_result} block of the request's last message; null when it has none. */
    public JsonNode lastToolResult() {
      List<JsonNode> messages = messages();
      return messages.isEmpty() ? null : toolResultOf(messages.get(messages.size() - 1));
    }

    private static JsonNode toolResultOf(JsonNode message) {
      for (JsonNode block : message.path("content")) {
        if ("tool_result".equals(block.path("type").asText())) {
          return block;
        }
      }
      return null;
    }

    /** The text of every message of the request (text blocks and tool results), in order. */
    public List<String> messageTexts() {
      return messages().stream().map(m -> textOf(m.get("content"))).toList();
    }

    /** The text of the last user message, or "" when none. */
    public String lastUserText() {
      List<JsonNode> messages = messages();
      for (int i = messages.size() - 1; i >= 0; i--) {
        if ("user".equals(messages.get(i).path("role").asText())) {
          return textOf(messages.get(i).get("content"));
        }
      }
      return "";
    }

    /** All the text of the request (system prompt and messages), for "does it mention X" checks. */
    public String allText() {
      return systemText() + "\n" + String.join("\n", messageTexts());
    }

    /** The names of the tools the request offers the model. */
    public List<String> toolNames() {
      List<String> names = new ArrayList<>();
      if (json != null && json.get("tools") instanceof ArrayNode tools) {
        tools.forEach(t -> names.add(t.path("name").asText()));
      }
      return names;
    }
  }

  /** Joins the text of a content value: a string, or an array of blocks (text, tool_result). */
  public static String textOf(JsonNode content) {
    if (content == null || content.isNull()) {
      return "";
    }
    if (content.isTextual()) {
      return content.asText();
    }
    List<String> parts = new ArrayList<>();
    if (content.isArray()) {
      for (JsonNode block : content) {
        String type = block.path("type").asText();
        if ("text".equals(type)) {
          parts.add(block.path("text").asText());
        } else if ("tool_result".equals(type)) {
          parts.add(textOf(block.get("content")));
        }
      }
    }
    return String.join("\n", parts);
  }

  /** One content block of a scripted answer. */
  public sealed interface Block {
    record Text(String text) implements Block {}

    record Thinking(String thinking) implements Block {}

    /** A tool call; {@code inputJson} is the tool input as a JSON object. */
    record ToolUse(String id, String name, String inputJson) implements Block {}
  }

  /** Token counts a reply reports. */
  public record Tokens(long input, long output, long cacheRead, long cacheCreation) {
    public static final Tokens DEFAULT = new Tokens(100, 20, 0, 0);
  }

  /** A scripted answer: a message (content blocks, stop reason, usage) or a fault. */
  public record Reply(
      List<Block> content,
      String stopReason,
      Tokens tokens,
      int httpStatus,
      String errorType,
      String errorMessage,
      boolean errorInStream,
      Duration delay,
      boolean hangs) {

    public Reply {
      content = List.copyOf(content);
      Objects.requireNonNull(tokens, "tokens");
      Objects.requireNonNull(delay, "delay");
    }

    /** A message made of these blocks; stops with {@code tool_use} when one is a tool call. */
    public static Reply of(Block... blocks) {
      boolean tool = List.of(blocks).stream().anyMatch(b -> b instanceof Block.ToolUse);
      return new Reply(
          List.of(blocks),
          tool ? "tool_use" : "end_turn",
          Tokens.DEFAULT,
          200,
          null,
          null,
          false,
          Duration.ZERO,
          false);
    }

    public static Reply text(String text) {
      return of(new Block.Text(text));
    }

    public static Reply toolUse(String name, String inputJson) {
      return of(new Block.ToolUse("toolu_" + Long.toHexString(System.nanoTime()), name, inputJson));
    }

    /** An HTTP error with Anthropic's error body {@code {"type":"error","error":{...}}}. */
    public static Reply error(int status, String type, String message) {
      return new Reply(
          List.of(), null, Tokens.DEFAULT, status, type, message, false, Duration.ZERO, false);
    }

    public static Reply serverError() {
      return error(500, "api_error", "Internal server error");
    }

    public static Reply rateLimited() {
      return error(
          429, "rate_limit_error", "Number of request tokens has exceeded your rate limit");
    }

    public static Reply overloaded() {
      return error(529, "overloaded_error", "Overloaded");
    }

    public static Reply promptTooLong() {
      return error(
          400, "invalid_request_error", "prompt is too long: 250000 tokens > 200000 maximum");
    }

    /** A stream that starts normally and then sends an {@code error} event (or a JSON error). */
    public static Reply streamError(String type, String message) {
      return new Reply(
          List.of(), null, Tokens.DEFAULT, 200, type, message, true, Duration.ZERO, false);
    }

    /** A request that is never answered until the fake releases its hangs or closes. */
    public static Reply hang() {
      return new Reply(
          List.of(), null, Tokens.DEFAULT, 200, null, null, false, Duration.ZERO, true);
    }

    public Reply withUsage(long input, long output, long cacheRead, long cacheCreation) {
      return new Reply(
          content,
          stopReason,
          new Tokens(input, output, cacheRead, cacheCreation),
          httpStatus,
          errorType,
          errorMessage,
          errorInStream,
          delay,
          hangs);
    }

    public Reply delayed(Duration by) {
      return new Reply(
          content,
          stopReason,
          tokens,
          httpStatus,
          errorType,
          errorMessage,
          errorInStream,
          by,
          hangs);
    }

    boolean isHttpError() {
      return httpStatus != 200;
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final Deque<Reply> script = new ArrayDeque<>();
  private final AtomicInteger counter = new AtomicInteger();
  private final AtomicLong busyNanos = new AtomicLong();
  private final AtomicInteger messageIds = new AtomicInteger();
  private volatile Predicate<Request> scriptFilter = Request::isMessages;
  private volatile Function<Request, Reply> fallback = r -> Reply.text("ok");
  private volatile CountDownLatch hangLatch = new CountDownLatch(1);

  private FakeMessagesApi() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    executor = Executors.newVirtualThreadPerTaskExecutor();
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts a fake on a free loopback port. */
  public static FakeMessagesApi start() {
    try {
      return new FakeMessagesApi();
    } catch (IOException e) {
      throw new IllegalStateException("could not start the fake Messages API", e);
    }
  }

  /** {@code http://127.0.0.1:PORT} (no trailing slash, no {@code /v1}). */
  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Queues answers for the next scripted requests, in order. */
  public FakeMessagesApi enqueue(Reply... replies) {
    synchronized (script) {
      script.addAll(List.of(replies));
    }
    return this;
  }

  /** Replies still queued. */
  public int pending() {
    synchronized (script) {
      return script.size();
    }
  }

  /**
   * Which messages requests take their answer from the queue (default: all). Others are answered by
   * the fallback; useful when a client makes side requests (titles, quota checks).
   */
  public FakeMessagesApi scriptFor(Predicate<Request> filter) {
    this.scriptFilter = Objects.requireNonNull(filter);
    return this;
  }

  /** How messages requests are answered when the queue is empty or the filter rejects them. */
  public FakeMessagesApi fallback(Function<Request, Reply> fallback) {
    this.fallback = Objects.requireNonNull(fallback);
    return this;
  }

  /** Every request received so far, in order. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  /** The {@code POST /v1/messages} requests the script filter accepts, in order. */
  public List<Request> scriptedRequests() {
    Predicate<Request> filter = scriptFilter;
    return requests.stream().filter(r -> r.isMessages() && filter.test(r)).toList();
  }

  /** Forgets the recorded requests (not the script). */
  public void clearRequests() {
    requests.clear();
  }

  /** Total time spent answering requests, in nanoseconds, including scripted delays and hangs. */
  public long busyNanos() {
    return busyNanos.get();
  }

  /** Ends every hanging request (the client sees the connection close without an answer). */
  public void releaseHangs() {
    CountDownLatch old = hangLatch;
    hangLatch = new CountDownLatch(1);
    old.countDown();
  }

  @Override
  public void close() {
    hangLatch.countDown();
    server.stop(0);
    executor.shutdownNow();
  }

  // ------------------------------------------------------------------ handling

  private void handle(HttpExchange exchange) throws IOException {
    long start = System.nanoTime();
    try (exchange) {
      byte[] raw = exchange.getRequestBody().readAllBytes();
      String body = new String(raw, StandardCharsets.UTF_8);
      JsonNode json = null;
      if (!body.isBlank()) {
        try {
          json = JSON.readTree(body);
        } catch (IOException e) {
          json = null;
        }
      }
      Request request =
          new Request(
              counter.getAndIncrement(),
              exchange.getRequestMethod(),
              exchange.getRequestURI().getPath(),
              copy(exchange.getRequestHeaders()),
              body,
              json);
      requests.add(request);
      if ("HEAD".equals(request.method())) {
        // a client's connectivity check
        exchange.sendResponseHeaders(200, -1);
      } else if (request.isMessages()) {
        answerMessages(exchange, request);
      } else if ("POST".equals(request.method())
          && (MESSAGES_PATH + "/count_tokens").equals(request.path())) {
        ObjectNode out = JSON.createObjectNode().put("input_tokens", Math.max(1, raw.length / 4));
        sendJson(exchange, 200, out);
      } else if ("GET".equals(request.method()) && "/v1/models".equals(request.path())) {
        sendJson(exchange, 200, models());
      } else {
        sendJson(exchange, 404, errorBody("not_found_error", "Not found: " + request.path()));
      }
    } finally {
      busyNanos.addAndGet(System.nanoTime() - start);
    }
  }

  private static Map<String, List<String>> copy(Headers headers) {
    Map<String, List<String>> out = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach((k, v) -> out.put(k, List.copyOf(v)));
    return out;
  }

  private void answerMessages(HttpExchange exchange, Request request) throws IOException {
    Reply reply = null;
    if (scriptFilter.test(request)) {
      synchronized (script) {
        reply = script.pollFirst();
      }
    }
    if (reply == null) {
      reply = fallback.apply(request);
    }
    if (reply.hangs()) {
      try {
        hangLatch.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    if (!reply.delay().isZero()) {
      try {
        TimeUnit.NANOSECONDS.sleep(reply.delay().toNanos());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (reply.isHttpError()) {
      exchange.getResponseHeaders().add("retry-after", "0");
      exchange.getResponseHeaders().add("x-should-retry", "false");
      sendJson(exchange, reply.httpStatus(), errorBody(reply.errorType(), reply.errorMessage()));
      return;
    }
    String model = request.model() == null ? "claude-sonnet-4-5" : request.model();
    String id = "msg_fake" + String.format("%016d", messageIds.incrementAndGet());
    if (request.streaming()) {
      stream(exchange, reply, model, id);
    } else if (reply.errorInStream()) {
      sendJson(exchange, 500, errorBody(reply.errorType(), reply.errorMessage()));
    } else {
      sendJson(exchange, 200, message(reply, model, id));
    }
  }

  private static ObjectNode errorBody(String type, String message) {
    ObjectNode out = JSON.createObjectNode().put("type", "error");
    out.putObject("error").put("type", type).put("message", message);
    return out;
  }

  private static ObjectNode models() {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode data = out.putArray("data");
    for (String m : List.of("claude-sonnet-4-5", "claude-haiku-4-5")) {
      data.addObject()
          .put("type", "model")
          .put("id", m)
          .put("display_name", m)
          .put("created_at", "2025-01-01T00:00:00Z");
    }
    out.put("has_more", false)
        .put("first_id", "claude-sonnet-4-5")
        .put("last_id", "claude-haiku-4-5");
    return out;
  }

  private static ObjectNode usage(Tokens t, boolean withOutput) {
    ObjectNode u = JSON.createObjectNode();
    u.put("input_tokens", t.input());
    u.put("cache_creation_input_tokens", t.cacheCreation());
    u.put("cache_read_input_tokens", t.cacheRead());
    u.put("output_tokens", withOutput ? t.output() : 1);
    u.put("service_tier", "standard");
    return u;
  }

  private static ObjectNode message(Reply reply, String model, String id) {
    ObjectNode m = messageShell(model, id);
    ArrayNode content = m.putArray("content");
    for (Block block : reply.content()) {
      content.add(blockJson(block, true));
    }
    m.put("stop_reason", reply.stopReason());
    m.putNull("stop_sequence");
    m.set("usage", usage(reply.tokens(), true));
    return m;
  }

  private static ObjectNode messageShell(String model, String id) {
    ObjectNode m = JSON.createObjectNode();
    m.put("id", id).put("type", "message").put("role", "assistant").put("model", model);
    return m;
  }

  private static ObjectNode blockJson(Block block, boolean complete) {
    ObjectNode b = JSON.createObjectNode();
    switch (block) {
      case Block.Text t -> b.put("type", "text").put("text", complete ? t.text() : "");
      case Block.Thinking t ->
          b.put("type", "thinking")
              .put("thinking", complete ? t.thinking() : "")
              .put("signature", complete ? "fake-signature" : "");
      case Block.ToolUse t -> {
        b.put("type", "tool_use").put("id", t.id()).put("name", t.name());
        if (complete) {
          b.set("input", readJson(t.inputJson()));
        } else {
          b.putObject("input");
        }
      }
    }
    return b;
  }

  private static JsonNode readJson(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("scripted tool input is not JSON: " + json, e);
    }
  }

  private void stream(HttpExchange exchange, Reply reply, String model, String id)
      throws IOException {
    exchange.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
    exchange.getResponseHeaders().add("Cache-Control", "no-cache");
    exchange.getResponseHeaders().add("request-id", "req_" + id);
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    ObjectNode start = JSON.createObjectNode().put("type", "message_start");
    ObjectNode shell = messageShell(model, id);
    shell.putArray("content");
    shell.putNull("stop_reason");
    shell.putNull("stop_sequence");
    shell.set("usage", usage(reply.tokens(), false));
    start.set("message", shell);
    event(out, "message_start", start);
    if (reply.errorInStream()) {
      event(out, "error", errorBody(reply.errorType(), reply.errorMessage()));
      return;
    }
    int index = 0;
    for (Block block : reply.content()) {
      ObjectNode blockStart =
          JSON.createObjectNode().put("type", "content_block_start").put("index", index);
      blockStart.set("content_block", blockJson(block, false));
      event(out, "content_block_start", blockStart);
      if (index == 0) {
        event(out, "ping", JSON.createObjectNode().put("type", "ping"));
      }
      switch (block) {
        case Block.Text t -> {
          for (String piece : pieces(t.text(), 24)) {
            delta(out, index, JSON.createObjectNode().put("type", "text_delta").put("text", piece));
          }
        }
        case Block.Thinking t -> {
          for (String piece : pieces(t.thinking(), 24)) {
            delta(
                out,
                index,
                JSON.createObjectNode().put("type", "thinking_delta").put("thinking", piece));
          }
          delta(
              out,
              index,
              JSON.createObjectNode()
                  .put("type", "signature_delta")
                  .put("signature", "fake-signature"));
        }
        case Block.ToolUse t -> {
          String input = JSON.writeValueAsString(readJson(t.inputJson()));
          for (String piece : pieces(input, 16)) {
            delta(
                out,
                index,
                JSON.createObjectNode().put("type", "input_json_delta").put("partial_json", piece));
          }
        }
      }
      event(
          out,
          "content_block_stop",
          JSON.createObjectNode().put("type", "content_block_stop").put("index", index));
      index++;
    }
    ObjectNode messageDelta = JSON.createObjectNode().put("type", "message_delta");
    messageDelta.putObject("delta").put("stop_reason", reply.stopReason()).putNull("stop_sequence");
    ObjectNode finalUsage = messageDelta.putObject("usage");
    finalUsage.put("input_tokens", reply.tokens().input());
    finalUsage.put("cache_creation_input_tokens", reply.tokens().cacheCreation());
    finalUsage.put("cache_read_input_tokens", reply.tokens().cacheRead());
    finalUsage.put("output_tokens", reply.tokens().output());
    event(out, "message_delta", messageDelta);
    event(out, "message_stop", JSON.createObjectNode().put("type", "message_stop"));
  }

  private static List<String> pieces(String text, int size) {
    List<String> out = new ArrayList<>();
    if (text.isEmpty()) {
      return out;
    }
    int i = 0;
    while (i < text.length()) {
      int end = Math.min(text.length(), i + size);
      if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
        end++;
      }
      out.add(text.substring(i, end));
      i = end;
    }
    return out;
  }

  private static void delta(OutputStream out, int index, ObjectNode delta) throws IOException {
    ObjectNode d = JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
    d.set("delta", delta);
    event(out, "content_block_delta", d);
  }

  private static void event(OutputStream out, String name, JsonNode data) throws IOException {
    String frame = "event: " + name + "\ndata: " + JSON.writeValueAsString(data) + "\n\n";
    out.write(frame.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static void sendJson(HttpExchange exchange, int status, JsonNode body)
      throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.getResponseHeaders().add("request-id", "req_fake" + System.nanoTime());
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
