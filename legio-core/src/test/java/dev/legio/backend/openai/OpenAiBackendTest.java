package dev.legio.backend.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionTools;
import dev.legio.backend.TurnResult;
import dev.legio.backend.http.ChatMessage;
import dev.legio.backend.http.HttpBackendContract;
import dev.legio.backend.http.HttpBackendHarness;
import dev.legio.config.ConfigException;
import dev.legio.config.LegioConfig;
import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.LoopbackHttpServer.Reply;
import dev.legio.testing.ScriptedTools;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The OpenAI-compatible back-end: the {@link HttpBackendContract} over the chat completions
 * protocol (SSE chunks), and what is its own (the bearer key, {@code stream_options}, cached
 * tokens, tool calls in pieces, {@code finish_reason}).
 */
class OpenAiBackendTest extends HttpBackendContract {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  protected Factory factory() {
    return OpenAiBackend::create;
  }

  @Override
  protected LegioConfig.Backend config(String serverUrl) {
    return LegioConfig.Backend.of("openai").withBaseUrl(serverUrl + "/v1").withApiKey(KEY);
  }

  @Override
  protected String chatPath() {
    return "/v1/chat/completions";
  }

  @Override
  protected Reply answer(String text, long input, long output) {
    return Reply.stream(
        "text/event-stream",
        List.of(text(text), finish("stop"), usage(input, output, 0), "data: [DONE]\n\n"));
  }

  @Override
  protected Reply toolCall(String id, String name, String inputJson) {
    ObjectNode call = JSON.createObjectNode();
    ObjectNode first = call.putArray("tool_calls").addObject();
    first.put("index", 0).put("id", id).put("type", "function");
    first.putObject("function").put("name", name).put("arguments", inputJson);
    return Reply.stream(
        "text/event-stream",
        List.of(chunk(call, null), finish("tool_calls"), usage(30, 10, 0), "data: [DONE]\n\n"));
  }

  @Override
  protected Reply error(int status, String message, Map<String, String> headers) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("error").put("message", message).put("type", "test_error");
    return Reply.json(status, body.toString(), headers);
  }

  @Override
  protected Reply cut(String partial) {
    return Reply.cut("text/event-stream", List.of(text(partial)));
  }

  @Override
  protected Sent read(LoopbackHttpServer.Request request) {
    JsonNode body = request.json();
    String system = "";
    List<String> texts = new ArrayList<>();
    List<String> wire = new ArrayList<>();
    for (JsonNode m : body.path("messages")) {
      if (m.path("role").asText().equals("system") && wire.isEmpty() && system.isEmpty()) {
        system = m.path("content").asText();
        continue;
      }
      texts.add(m.path("content").isTextual() ? m.path("content").asText() : "");
      wire.add(m.toString());
    }
    List<String> tools = new ArrayList<>();
    body.path("tools").forEach(t -> tools.add(t.at("/function/name").asText()));
    return new Sent(request.path(), system, texts, wire, tools);
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

  private static Reply answerCached(String... pieces) {
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
    h.server.enqueue(answerCached("Scouts ", "report ", "a clear road."));
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
  void toolCallsArriveInPiecesAndResultsGoBackAsToolMessagesWithTheCallId() throws Exception {
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
        answerCached("The road was clear on the ides."));
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
