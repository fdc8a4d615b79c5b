package dev.legio.backend.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionTools;
import dev.legio.backend.TurnResult;
import dev.legio.backend.http.ChatMessage;
import dev.legio.backend.http.HttpBackend;
import dev.legio.backend.http.HttpBackendHarness;
import dev.legio.config.ConfigException;
import dev.legio.config.LegioConfig;
import dev.legio.testing.LogCapture;
import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.LoopbackHttpServer.Reply;
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

class OpenAiBackendTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY = "sk-test-0123456789abcdef";

  @TempDir Path dir;
  private HttpBackendHarness h;
  private final List<HttpBackend> backends = new ArrayList<>();

  @BeforeEach
  void start() {
    h = new HttpBackendHarness(dir);
  }

  @AfterEach
  void stop() {
    backends.forEach(HttpBackend::close);
    h.close();
  }

  private LegioConfig.Backend config() {
    return LegioConfig.Backend.of("openai").withBaseUrl(h.server.baseUrl() + "/v1").withApiKey(KEY);
  }

  private HttpBackend backend(LegioConfig.Backend config, Toolset tools) {
    HttpBackend b =
        OpenAiBackend.create(config, h.conversations(), spec -> tools, h.clock, h.sleeper);
    backends.add(b);
    return b;
  }

  private HttpBackend backend() {
    return backend(config(), new ScriptedTools());
  }

  /** One chat.completion.chunk as an SSE event. */
  private static String chunk(JsonNode delta, String finishReason) {
    ObjectNode c = JSON.createObjectNode();
    c.put("id", "chatcmpl-1").put("object", "chat.completion.chunk").put("created", 1);
    c.put("model", "gpt-4o");
    ObjectNode choice = c.putArray("choices").addObject();
    choice.put("index", 0);
    choice.set("delta", delta);
    if (finishReason == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finishReason);
    }
    return "data: " + c + "\n\n";
  }

  private static String text(String piece) {
    return chunk(JSON.createObjectNode().put("content", piece), null);
  }

  private static String finish(String reason) {
    return chunk(JSON.createObjectNode(), reason);
  }

  private static String usage(long prompt, long completion, long cached) {
    ObjectNode c = JSON.createObjectNode();
    c.put("id", "chatcmpl-1").put("object", "chat.completion.chunk").put("created", 1);
    c.put("model", "gpt-4o");
    c.putArray("choices");
    ObjectNode u = c.putObject("usage");
    u.put("prompt_tokens", prompt).put("completion_tokens", completion);
    u.put("total_tokens", prompt + completion);
    u.putObject("prompt_tokens_details").put("cached_tokens", cached);
    return "data: " + c + "\n\n";
  }

  private static Reply answer(String... pieces) {
    List<String> events = new ArrayList<>();
    for (String p : pieces) {
      events.add(text(p));
    }
    events.add(finish("stop"));
    events.add(usage(100, 7, 40));
    events.add("data: [DONE]\n\n");
    return Reply.stream("text/event-stream", events);
  }

  @Test
  void aTurnStreamsTheAnswerSendsSystemPromptAndUsageOptionAndIsStored() {
    h.server.enqueue(answer("Scouts ", "report ", "a clear road."));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    TurnResult result = session.send("Scout the north road", events);

    assertThat(result.text()).isEqualTo("Scouts report a clear road.");
    assertThat(events.text()).isEqualTo("Scouts report a clear road.");
    assertThat(events.statuses()).first().asString().contains("Thinking");
    assertThat(result.usage().inputTokens()).isEqualTo(60);
    assertThat(result.usage().cacheReadTokens()).isEqualTo(40);
    assertThat(result.usage().outputTokens()).isEqualTo(7);
    assertThat(result.usage().estimated()).isFalse();

    LoopbackHttpServer.Request request = h.server.requests().get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/v1/chat/completions");
    assertThat(request.header("authorization")).isEqualTo("Bearer " + KEY);
    JsonNode body = request.json();
    assertThat(body.get("model").asText()).isEqualTo("gpt-4o");
    assertThat(body.get("stream").asBoolean()).isTrue();
    assertThat(body.at("/stream_options/include_usage").asBoolean()).isTrue();
    JsonNode m = body.get("messages");
    assertThat(m).hasSize(2);
    assertThat(m.get(0).get("role").asText()).isEqualTo("system");
    assertThat(m.get(0).get("content").asText()).isEqualTo("You are vorenus, a centurio.");
    assertThat(m.get(1).get("role").asText()).isEqualTo("user");
    assertThat(m.get(1).get("content").asText()).isEqualTo("Scout the north road");
    assertThat(body.has("tools")).isFalse();

    assertThat(h.stored(session).turns()).hasSize(1);
    assertThat(h.stored(session).turns().get(0).messages())
        .containsExactly(
            new ChatMessage.User("Scout the north road"),
            new ChatMessage.Assistant("Scouts report a clear road.", List.of()));
    assertThat(h.stored(session).contextTokens()).isEqualTo(107);
  }

  @Test
  void aRestartBetweenTurnsSendsExactlyTheSameConversation() {
    h.server.enqueue(answer("First answer."), answer("Second answer."), answer("Third answer."));
    HttpBackend before = backend();
    BackendSession session = before.open(HttpBackendHarness.spec("vorenus", null));
    session.send("one", new HttpBackendHarness.Events());
    session.send("two", new HttpBackendHarness.Events());
    String id = session.backendSessionId();
    before.close();

    h.restart();
    BackendSession resumed = backend().open(HttpBackendHarness.spec("vorenus", id));
    assertThat(resumed.resumed()).isTrue();
    assertThat(resumed.backendSessionId()).isEqualTo(id);
    resumed.send("three", new HttpBackendHarness.Events());

    ArrayNode second = (ArrayNode) h.server.requests().get(1).json().get("messages");
    ArrayNode third = (ArrayNode) h.server.requests().get(2).json().get("messages");
    assertThat(third).hasSize(second.size() + 2);
    for (int i = 0; i < second.size(); i++) {
      assertThat(third.get(i)).isEqualTo(second.get(i));
    }
    assertThat(third.get(second.size()).get("role").asText()).isEqualTo("assistant");
    assertThat(third.get(second.size()).get("content").asText()).isEqualTo("Second answer.");
    assertThat(third.get(second.size() + 1).get("content").asText()).isEqualTo("three");
  }

  @Test
  void anUnknownResumeIdStartsANewConversation() {
    BackendSession session =
        backend().open(HttpBackendHarness.spec("vorenus", "0190a1b2-0000-7000-8000-000000000000"));
    assertThat(session.resumed()).isFalse();
    assertThat(session.backendSessionId()).isNotEqualTo("0190a1b2-0000-7000-8000-000000000000");
  }

  @Test
  void theToolLoopRunsToolsSendsResultsBackAndStoresTheWholeTurn() throws Exception {
    ObjectNode call = JSON.createObjectNode();
    ObjectNode first = call.putArray("tool_calls").addObject();
    first.put("index", 0).put("id", "call_abc").put("type", "function");
    first.putObject("function").put("name", "memoria_search").put("arguments", "{\"query\":");
    ObjectNode rest = JSON.createObjectNode();
    rest.putArray("tool_calls")
        .addObject()
        .put("index", 0)
        .putObject("function")
        .put("arguments", "\"north road\"}");
    h.server.enqueue(
        Reply.stream(
            "text/event-stream",
            List.of(
                text("Let me look. "),
                chunk(call, null),
                chunk(rest, null),
                finish("tool_calls"),
                usage(50, 20, 0),
                "data: [DONE]\n\n")),
        answer("The road was clear on the ides."));
    ScriptedTools tools =
        new ScriptedTools(ScriptedTools.memoriaSearch(query -> "acta: road clear (ides)"));
    BackendSession session = backend(config(), tools).open(HttpBackendHarness.spec("pullo", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    TurnResult result = session.send("What do we know about the north road?", events);

    assertThat(tools.calls)
        .containsExactly(new ScriptedTools.Call("memoria_search", "{\"query\":\"north road\"}"));
    assertThat(events.toolCalls()).hasSize(1);
    assertThat(events.toolCalls().get(0).name()).isEqualTo("memoria_search");
    assertThat(result.text()).isEqualTo("Let me look.\n\nThe road was clear on the ides.");
    assertThat(result.usage().inputTokens()).isEqualTo(50 + 60);

    JsonNode offered = h.server.requests().get(0).json().get("tools").get(0);
    assertThat(offered.get("type").asText()).isEqualTo("function");
    assertThat(offered.at("/function/name").asText()).isEqualTo("memoria_search");
    assertThat(offered.at("/function/parameters/required/0").asText()).isEqualTo("query");

    JsonNode messages = h.server.requests().get(1).json().get("messages");
    assertThat(messages).hasSize(4);
    assertThat(messages.get(2).get("role").asText()).isEqualTo("assistant");
    assertThat(messages.get(2).at("/tool_calls/0/id").asText()).isEqualTo("call_abc");
    assertThat(messages.get(2).at("/tool_calls/0/function/arguments").asText())
        .isEqualTo("{\"query\":\"north road\"}");
    assertThat(messages.get(3).get("role").asText()).isEqualTo("tool");
    assertThat(messages.get(3).get("tool_call_id").asText()).isEqualTo("call_abc");
    assertThat(messages.get(3).get("content").asText()).isEqualTo("acta: road clear (ides)");

    assertThat(h.stored(session).turns().get(0).messages()).hasSize(4);
  }

  @Test
  void rateLimitIsRetriedAfterTheServersRetryAfter() {
    h.server.enqueue(
        Reply.json(
            429,
            "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"rate_limit\"}}",
            Map.of("retry-after", "7")),
        answer("Done."));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    assertThat(session.send("go", events).text()).isEqualTo("Done.");
    assertThat(h.sleeper.waits).containsExactly(Duration.ofSeconds(7));
    assertThat(events.statuses()).anyMatch(s -> s.contains("rate limited; retrying in 7 s"));
    assertThat(h.server.requests()).hasSize(2);
  }

  @Test
  void serverErrorsAreRetriedWithBackOffThenFailTheTurnLeavingTheConversationUnchanged() {
    for (int i = 0; i < 4; i++) {
      h.server.enqueue(Reply.json(503, "{\"error\":{\"message\":\"upstream overloaded\"}}"));
    }
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));

    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("HTTP 503")
        .hasMessageContaining("after 4 attempts")
        .hasMessageContaining("upstream overloaded");
    assertThat(h.sleeper.waits)
        .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
    assertThat(h.stored(session).turns()).isEmpty();
  }

  @Test
  void aClientErrorIsNotRetriedAndSurfacesTheServersMessage() {
    h.server.enqueue(
        Reply.json(
            404,
            "{\"error\":{\"message\":\"The model `gpt-9` does not exist\",\"type\":\"invalid_request_error\"}}"));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));

    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("HTTP 404")
        .hasMessageContaining("The model `gpt-9` does not exist")
        .hasMessageContaining("[backend] model");
    assertThat(h.sleeper.waits).isEmpty();
    assertThat(h.server.requests()).hasSize(1);
  }

  @Test
  void aTruncatedStreamFailsTheTurnWithoutRetryAndTheNextTurnSendsTheOldConversation() {
    h.server.enqueue(
        answer("Fine."),
        Reply.cut("text/event-stream", List.of(text("Half an ans"))),
        answer("Whole answer."));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    session.send("one", new HttpBackendHarness.Events());

    assertThatThrownBy(() -> session.send("two", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("the answer broke off while it was streaming");
    assertThat(h.sleeper.waits).isEmpty();
    assertThat(h.stored(session).turns()).hasSize(1);

    session.send("two again", new HttpBackendHarness.Events());
    JsonNode messages = h.server.requests().get(2).json().get("messages");
    assertThat(messages).hasSize(4);
    assertThat(messages.get(3).get("content").asText()).isEqualTo("two again");
  }

  @Test
  void aStreamEndingWithoutFinishReasonIsMalformed() {
    h.server.enqueue(
        Reply.stream("text/event-stream", List.of(text("no end"), "data: [DONE]\n\n")));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));

    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("could not be read")
        .hasMessageContaining("finish_reason");
    assertThat(h.stored(session).turns()).isEmpty();
  }

  @Test
  void connectionRefusedIsRetriedThenSaysToCheckTheBaseUrl() {
    LegioConfig.Backend config =
        LegioConfig.Backend.of("openai")
            .withBaseUrl("http://127.0.0.1:" + LoopbackHttpServer.closedPort() + "/v1")
            .withApiKey(KEY);
    BackendSession session =
        backend(config, new ScriptedTools()).open(HttpBackendHarness.spec("vorenus", null));

    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("could not be reached")
        .hasMessageContaining("base_url");
    assertThat(h.sleeper.waits).hasSize(3);
  }

  @Test
  void aServerThatDoesNotAnswerTimesOut() {
    LegioConfig.Backend c = config();
    LegioConfig.Backend quick =
        new LegioConfig.Backend(
            c.kind(),
            c.model(),
            c.baseUrl(),
            c.apiKeyEnv(),
            c.apiKey(),
            Duration.ofSeconds(2),
            Duration.ofMillis(300),
            0,
            c.maxOutputTokens(),
            c.summariseAfterTokens(),
            c.contextWindows(),
            c.keepAlive(),
            c.countTokens());
    h.server.enqueue(Reply.stall(Duration.ofSeconds(3)));
    BackendSession session =
        backend(quick, new ScriptedTools()).open(HttpBackendHarness.spec("vorenus", null));

    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("timed out")
        .hasMessageContaining("request_timeout_seconds");
  }

  @Test
  void theApiKeyAppearsInNoErrorAndNoLogLine() {
    h.server.enqueue(
        Reply.json(
            429,
            "{\"error\":{\"message\":\"slow down, " + KEY + "\"}}",
            Map.of("retry-after", "1")),
        Reply.json(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\"}}"));
    try (LogCapture logs = new LogCapture()) {
      BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
      assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
          .isInstanceOf(BackendException.class)
          .hasMessageContaining("HTTP 401")
          .hasMessageContaining("Incorrect API key provided: ***")
          .hasMessageContaining("api_key_env")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY));
      assertThat(logs.text()).contains("rate limited").doesNotContain(KEY);
    }
  }

  @Test
  void theOfficialApiWithoutAKeyIsAConfigurationErrorNamingTheVariable() {
    assertThatThrownBy(
            () ->
                OpenAiBackend.create(
                    LegioConfig.Backend.of("openai"),
                    h.conversations(),
                    SessionTools.NONE,
                    h.clock,
                    h.sleeper))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("OPENAI_API_KEY");
  }
}
