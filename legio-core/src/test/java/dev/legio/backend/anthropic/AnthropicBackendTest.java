package dev.legio.backend.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionTools;
import dev.legio.backend.TurnResult;
import dev.legio.backend.http.HttpBackend;
import dev.legio.backend.http.HttpBackendHarness;
import dev.legio.config.ConfigException;
import dev.legio.config.LegioConfig;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Block;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.LogCapture;
import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.ScriptedTools;
import dev.legio.tools.Toolset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnthropicBackendTest {
  private static final String KEY = "sk-ant-test-0123456789abcdef";

  @TempDir Path dir;
  private HttpBackendHarness h;
  private FakeMessagesApi api;
  private final List<HttpBackend> backends = new ArrayList<>();

  @BeforeEach
  void start() {
    h = new HttpBackendHarness(dir);
    api = FakeMessagesApi.start();
  }

  @AfterEach
  void stop() {
    backends.forEach(HttpBackend::close);
    api.close();
    h.close();
  }

  private LegioConfig.Backend config() {
    return LegioConfig.Backend.of("anthropic")
        .withBaseUrl(api.baseUrl().toString())
        .withApiKey(KEY);
  }

  private HttpBackend backend(LegioConfig.Backend config, Toolset tools) {
    HttpBackend b =
        AnthropicBackend.create(config, h.conversations(), spec -> tools, h.clock, h.sleeper);
    backends.add(b);
    return b;
  }

  private HttpBackend backend() {
    return backend(config(), new ScriptedTools());
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
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
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
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
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
    BackendSession session = backend(config(), tools).open(HttpBackendHarness.spec("pullo", null));
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
  void aRestartBetweenTurnsSendsExactlyTheSameConversation() {
    api.enqueue(Reply.text("One."), Reply.text("Two."));
    HttpBackend before = backend();
    BackendSession session = before.open(HttpBackendHarness.spec("vorenus", null));
    session.send("first", new HttpBackendHarness.Events());
    String id = session.backendSessionId();
    before.close();
    h.restart();

    BackendSession resumed = backend().open(HttpBackendHarness.spec("vorenus", id));
    resumed.send("second", new HttpBackendHarness.Events());

    assertThat(resumed.resumed()).isTrue();
    JsonNode first = messagesRequests().get(0).json();
    JsonNode second = messagesRequests().get(1).json();
    assertThat(second.get("system")).isEqualTo(first.get("system"));
    assertThat(second.at("/messages/0/content/0/text"))
        .isEqualTo(first.at("/messages/0/content/0/text"));
    assertThat(second.at("/messages/1/content/0/text").asText()).isEqualTo("One.");
    assertThat(second.at("/messages/2/content/0/text").asText()).isEqualTo("second");
  }

  @Test
  void overloadedAndRateLimitedAreRetried() {
    api.enqueue(Reply.overloaded(), Reply.rateLimited(), Reply.text("Finally."));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
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
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
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
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("Overloaded");
    assertThat(h.stored(session).turns()).isEmpty();
  }

  @Test
  void aStreamCutBeforeMessageStopIsNotKept() {
    try (LoopbackHttpServer raw = LoopbackHttpServer.start()) {
      raw.enqueue(
          LoopbackHttpServer.Reply.cut(
              "text/event-stream",
              List.of(
                  "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
                      + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\","
                      + "\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
                      + "\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n",
                  "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                      + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
                  "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                      + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Half\"}}\n\n")));
      BackendSession session =
          backend(config().withBaseUrl(raw.baseUrl()), new ScriptedTools())
              .open(HttpBackendHarness.spec("vorenus", null));
      HttpBackendHarness.Events events = new HttpBackendHarness.Events();
      assertThatThrownBy(() -> session.send("go", events))
          .isInstanceOf(BackendException.class)
          .hasMessageContaining("broke off");
      assertThat(events.text()).isEqualTo("Half");
      assertThat(h.stored(session).turns()).isEmpty();
      assertThat(h.sleeper.waits).isEmpty();
      assertThat(raw.requests().get(0).path()).isEqualTo("/v1/messages");
    }
  }

  @Test
  void countTokensDecidesTheCompactionWhenAsked() {
    LegioConfig.Backend c = config();
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
  void theKeyNeverShowsInErrorsOrLogs() {
    api.enqueue(
        Reply.rateLimited(), Reply.error(401, "authentication_error", "invalid x-api-key " + KEY));
    try (LogCapture logs = new LogCapture()) {
      BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
      assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
          .isInstanceOf(BackendException.class)
          .hasMessageContaining("HTTP 401")
          .hasMessageContaining("api_key_env")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY));
      assertThat(logs.text()).contains("rate limited").doesNotContain(KEY);
    }
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
