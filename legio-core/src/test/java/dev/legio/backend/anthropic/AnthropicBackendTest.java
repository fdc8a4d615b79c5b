package dev.legio.backend.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionTools;
import dev.legio.backend.TurnResult;
import dev.legio.backend.http.HttpBackend;
import dev.legio.backend.http.HttpBackendContract;
import dev.legio.backend.http.HttpBackendHarness;
import dev.legio.config.ConfigException;
import dev.legio.config.LegioConfig;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Block;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.ScriptedTools;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Anthropic back-end: the {@link HttpBackendContract} over the Messages API's SSE events, and
 * what is its own against {@link FakeMessagesApi} (the key and version headers, cache tokens and
 * markers, tool results in a user message, overloaded, errors inside the stream, count_tokens).
 */
class AnthropicBackendTest extends HttpBackendContract {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FakeMessagesApi api;

  @BeforeEach
  void startApi() {
    api = FakeMessagesApi.start();
  }

  @AfterEach
  void stopApi() {
    api.close();
  }

  @Override
  protected Factory factory() {
    return AnthropicBackend::create;
  }

  @Override
  protected LegioConfig.Backend config(String serverUrl) {
    return LegioConfig.Backend.of("anthropic").withBaseUrl(serverUrl).withApiKey(KEY);
  }

  @Override
  protected String chatPath() {
    return FakeMessagesApi.MESSAGES_PATH;
  }

  @Override
  protected LoopbackHttpServer.Reply answer(String text, long input, long output) {
    return sse(
        false,
        input,
        output,
        "end_turn",
        start(0, JSON.createObjectNode().put("type", "text").put("text", "")),
        delta(0, JSON.createObjectNode().put("type", "text_delta").put("text", text)),
        stop(0));
  }

  @Override
  protected LoopbackHttpServer.Reply toolCall(String id, String name, String inputJson) {
    ObjectNode block = JSON.createObjectNode().put("type", "tool_use").put("id", id);
    block.put("name", name).putObject("input");
    return sse(
        false,
        30,
        10,
        "tool_use",
        start(0, block),
        delta(
            0,
            JSON.createObjectNode().put("type", "input_json_delta").put("partial_json", inputJson)),
        stop(0));
  }

  @Override
  protected LoopbackHttpServer.Reply error(
      int status, String message, Map<String, String> headers) {
    String type =
        switch (status) {
          case 401 -> "authentication_error";
          case 404 -> "not_found_error";
          case 429 -> "rate_limit_error";
          default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    ObjectNode body = JSON.createObjectNode().put("type", "error");
    body.putObject("error").put("type", type).put("message", message);
    return LoopbackHttpServer.Reply.json(status, body.toString(), headers);
  }

  @Override
  protected LoopbackHttpServer.Reply cut(String partial) {
    return sse(
        true,
        10,
        1,
        null,
        start(0, JSON.createObjectNode().put("type", "text").put("text", "")),
        delta(0, JSON.createObjectNode().put("type", "text_delta").put("text", partial)));
  }

  @Override
  protected String failedToolResult(String text) {
    return text;
  }

  @Override
  protected Sent read(LoopbackHttpServer.Request request) {
    JsonNode body = request.json();
    List<String> texts = new ArrayList<>();
    List<String> wire = new ArrayList<>();
    for (JsonNode m : body.path("messages")) {
      texts.add(FakeMessagesApi.textOf(m.get("content")));
      wire.add(withoutCacheMarkers(m.deepCopy()).toString());
    }
    List<String> tools = new ArrayList<>();
    body.path("tools").forEach(t -> tools.add(t.path("name").asText()));
    return new Sent(request.path(), FakeMessagesApi.textOf(body.get("system")), texts, wire, tools);
  }

  /** {@code node} without its {@code cache_control} markers, which move from turn to turn. */
  private static JsonNode withoutCacheMarkers(JsonNode node) {
    if (node instanceof ObjectNode o) {
      o.remove("cache_control");
    }
    node.forEach(AnthropicBackendTest::withoutCacheMarkers);
    return node;
  }

  /** A Messages API stream: the events, then (unless {@code cut}) the usage and the stop. */
  private static LoopbackHttpServer.Reply sse(
      boolean cut, long input, long output, String stopReason, String... blockEvents) {
    ObjectNode shell = JSON.createObjectNode().put("id", "msg_contract").put("type", "message");
    shell.put("role", "assistant").put("model", "claude-sonnet-4-5");
    shell.putArray("content");
    shell.putNull("stop_reason").putNull("stop_sequence");
    shell.putObject("usage").put("input_tokens", input).put("output_tokens", 1);
    List<String> events = new ArrayList<>();
    events.add(
        event(
            "message_start",
            JSON.createObjectNode().put("type", "message_start").set("message", shell)));
    events.addAll(List.of(blockEvents));
    if (cut) {
      return LoopbackHttpServer.Reply.cut("text/event-stream", events);
    }
    ObjectNode messageDelta = JSON.createObjectNode().put("type", "message_delta");
    messageDelta.putObject("delta").put("stop_reason", stopReason).putNull("stop_sequence");
    messageDelta.putObject("usage").put("input_tokens", input).put("output_tokens", output);
    events.add(event("message_delta", messageDelta));
    events.add(event("message_stop", JSON.createObjectNode().put("type", "message_stop")));
    return LoopbackHttpServer.Reply.stream("text/event-stream", events);
  }

  private static String start(int index, ObjectNode block) {
    ObjectNode e = JSON.createObjectNode().put("type", "content_block_start").put("index", index);
    e.set("content_block", block);
    return event("content_block_start", e);
  }

  private static String delta(int index, ObjectNode delta) {
    ObjectNode e = JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
    e.set("delta", delta);
    return event("content_block_delta", e);
  }

  private static String stop(int index) {
    return event(
        "content_block_stop",
        JSON.createObjectNode().put("type", "content_block_stop").put("index", index));
  }

  private static String event(String name, JsonNode data) {
    return "event: " + name + "\ndata: " + data + "\n\n";
  }

  /** The {@code [backend]} section for {@link FakeMessagesApi}. */
  private LegioConfig.Backend fakeConfig() {
    return config(api.baseUrl().toString());
  }

  private HttpBackend fake() {
    return backend(fakeConfig(), new ScriptedTools());
  }

  private List<FakeMessagesApi.Request> messagesRequests() {
    return api.requests().stream().filter(FakeMessagesApi.Request::isMessages).toList();
  }

  private static boolean cached(JsonNode block) {
    return block.path("cache_control").path("type").asText().equals("ephemeral");
  }

  @Test
  void aTurnStreamsAndReportsUsageWithCacheTokensAndSendsTheKeyAndTheModel() {
    api.enqueue(Reply.text("Ave, Caesar.").withUsage(12, 5, 300, 40));
    BackendSession session = fake().open(HttpBackendHarness.spec("vorenus", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    TurnResult result = session.send("Report", events);

    assertThat(result.text()).isEqualTo("Ave, Caesar.");
    assertThat(events.text()).isEqualTo("Ave, Caesar.");
    assertThat(result.usage().inputTokens()).isEqualTo(12);
    assertThat(result.usage().outputTokens()).isEqualTo(5);
    assertThat(result.usage().cacheReadTokens()).isEqualTo(300);
    assertThat(result.usage().cacheCreationTokens()).isEqualTo(40);
    assertThat(h.stored(session).contextTokens()).isEqualTo(12 + 5 + 300 + 40);

    FakeMessagesApi.Request request = messagesRequests().get(0);
    // The SDK sends the key as x-api-key or as a bearer token, depending on its version.
    assertThat(
            request.header("x-api-key") != null
                ? request.header("x-api-key")
                : request.header("authorization"))
        .endsWith(KEY);
    assertThat(request.header("anthropic-version")).isNotBlank();
    assertThat(request.streaming()).isTrue();
    assertThat(request.model()).isEqualTo("claude-sonnet-4-5");
    assertThat(request.json().get("max_tokens").asInt()).isEqualTo(8192);
    assertThat(request.systemText()).isEqualTo("You are vorenus, a centurio.");
  }

  @Test
  void theStablePrefixCarriesCacheMarkers() {
    api.enqueue(Reply.text("One."), Reply.text("Two."));
    BackendSession session = fake().open(HttpBackendHarness.spec("vorenus", null));
    session.send("first", new HttpBackendHarness.Events());
    session.send("second", new HttpBackendHarness.Events());

    JsonNode second = messagesRequests().get(1).json();
    JsonNode system = second.get("system");
    assertThat(cached(system.get(system.size() - 1))).isTrue();
    JsonNode messages = second.get("messages");
    assertThat(messages).hasSize(3);
    // The older turns end with the first answer: marked; the new message, last: marked.
    JsonNode olderEnd = messages.get(1).get("content");
    assertThat(cached(olderEnd.get(olderEnd.size() - 1))).isTrue();
    assertThat(cached(messages.get(0).get("content").get(0))).isFalse();
    JsonNode newest = messages.get(2).get("content");
    assertThat(newest.get(0).get("text").asText()).isEqualTo("second");
    assertThat(cached(newest.get(newest.size() - 1))).isTrue();
    int markers = 0;
    for (JsonNode m : messages) {
      for (JsonNode b : m.get("content")) {
        markers += cached(b) ? 1 : 0;
      }
    }
    assertThat(markers + 1).isLessThanOrEqualTo(4);
  }

  @Test
  void theToolUseLoopSendsToolResultsInAUserMessageAndStoresTheWholeTurn() {
    api.enqueue(
        Reply.of(
            new Block.Text("Checking the acta."),
            new Block.ToolUse("toolu_01", "memoria_search", "{\"query\":\"grain\"}")),
        Reply.text("Grain for nine days."));
    ScriptedTools tools =
        new ScriptedTools(ScriptedTools.memoriaSearch(query -> "acta: grain 9 days"));
    BackendSession session =
        backend(fakeConfig(), tools).open(HttpBackendHarness.spec("pullo", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    TurnResult result = session.send("Grain?", events);

    assertThat(result.text()).isEqualTo("Checking the acta.\n\nGrain for nine days.");
    assertThat(tools.calls)
        .containsExactly(new ScriptedTools.Call("memoria_search", "{\"query\":\"grain\"}"));
    assertThat(events.toolCalls()).extracting(c -> c.name()).containsExactly("memoria_search");
    FakeMessagesApi.Request first = messagesRequests().get(0);
    assertThat(first.toolNames()).containsExactly("memoria_search");
    assertThat(first.json().at("/tools/0/input_schema/properties/query/type").asText())
        .isEqualTo("string");
    JsonNode messages = messagesRequests().get(1).json().get("messages");
    assertThat(messages).hasSize(3);
    assertThat(messages.at("/1/role").asText()).isEqualTo("assistant");
    assertThat(messages.at("/1/content/1/type").asText()).isEqualTo("tool_use");
    assertThat(messages.at("/1/content/1/id").asText()).isEqualTo("toolu_01");
    assertThat(messages.at("/1/content/1/input/query").asText()).isEqualTo("grain");
    assertThat(messages.at("/2/role").asText()).isEqualTo("user");
    assertThat(messages.at("/2/content/0/type").asText()).isEqualTo("tool_result");
    assertThat(messages.at("/2/content/0/tool_use_id").asText()).isEqualTo("toolu_01");
    assertThat(FakeMessagesApi.textOf(messages.at("/2/content"))).contains("acta: grain 9 days");
    assertThat(h.stored(session).turns().get(0).messages()).hasSize(4);
  }

  @Test
  void overloadedAndRateLimitedAreRetried() {
    api.enqueue(Reply.overloaded(), Reply.rateLimited(), Reply.text("Finally."));
    BackendSession session = fake().open(HttpBackendHarness.spec("vorenus", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    assertThat(session.send("go", events).text()).isEqualTo("Finally.");
    // The fake says retry-after: 0, which is honoured.
    assertThat(h.sleeper.waits).containsExactly(Duration.ZERO, Duration.ZERO);
    assertThat(events.statuses()).anyMatch(s -> s.contains("server error"));
    assertThat(events.statuses()).anyMatch(s -> s.contains("rate limited"));
  }

  @Test
  void aPromptTooLongIsNotRetriedAndItsMessageIsShown() {
    api.enqueue(Reply.promptTooLong());
    BackendSession session = fake().open(HttpBackendHarness.spec("vorenus", null));
    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("HTTP 400")
        .hasMessageContaining("prompt is too long: 250000 tokens > 200000 maximum");
    assertThat(messagesRequests()).hasSize(1);
    assertThat(h.stored(session).turns()).isEmpty();
  }

  @Test
  void anErrorEventInTheStreamFailsTheTurnAndStoresNothing() {
    for (int i = 0; i < 4; i++) {
      api.enqueue(Reply.streamError("overloaded_error", "Overloaded"));
    }
    BackendSession session = fake().open(HttpBackendHarness.spec("vorenus", null));
    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("Overloaded");
    assertThat(h.stored(session).turns()).isEmpty();
  }

  @Test
  void countTokensDecidesTheCompactionWhenAsked() {
    LegioConfig.Backend c = fakeConfig();
    LegioConfig.Backend counting =
        new LegioConfig.Backend(
            c.kind(),
            c.model(),
            c.baseUrl(),
            c.apiKeyEnv(),
            c.apiKey(),
            c.connectTimeout(),
            c.requestTimeout(),
            c.maxRetries(),
            c.maxOutputTokens(),
            100,
            Map.of(),
            c.keepAlive(),
            true);
    // The reported usage is small; the count (a quarter of the request's bytes) is not.
    api.enqueue(
        Reply.text("x".repeat(600)).withUsage(1, 1, 0, 0),
        Reply.text("y").withUsage(1, 1, 0, 0),
        Reply.text("Summary."),
        Reply.text("Next."));
    HttpBackend backend =
        AnthropicBackend.create(
            counting,
            new LegioConfig.Context(true, 0.9, 50_000, 2, 3),
            h.conversations(),
            spec -> new ScriptedTools(),
            h.clock,
            h.sleeper);
    backends.add(backend);
    BackendSession session = backend.open(HttpBackendHarness.spec("vorenus", null));
    session.send("first", new HttpBackendHarness.Events());
    // Past 100 tokens by the count, but nothing older than the 2 most recent messages yet.
    session.send("second", new HttpBackendHarness.Events());
    String before = session.backendSessionId();
    assertThat(before).isEqualTo(h.stored(session).id().toString());

    session.send("third", new HttpBackendHarness.Events());

    assertThat(api.requests().stream().map(FakeMessagesApi.Request::path))
        .contains("/v1/messages/count_tokens");
    assertThat(session.backendSessionId()).isNotEqualTo(before);
    assertThat(messagesRequests().get(2).lastUserText()).contains("x".repeat(600));
    assertThat(messagesRequests().get(3).systemText()).contains("Summary.");
    assertThat(messagesRequests().get(3).messageTexts()).containsExactly("second", "y", "third");
  }

  @Test
  void withoutAKeyTheConfigurationErrorNamesTheVariable() {
    assertThatThrownBy(
            () ->
                AnthropicBackend.create(
                    LegioConfig.Backend.of("anthropic"),
                    h.conversations(),
                    SessionTools.NONE,
                    h.clock,
                    h.sleeper))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("ANTHROPIC_API_KEY");
  }
}
