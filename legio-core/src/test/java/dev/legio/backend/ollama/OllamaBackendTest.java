package dev.legio.backend.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.TurnResult;
import dev.legio.backend.http.ChatRequest;
import dev.legio.backend.http.ContextSummary;
import dev.legio.backend.http.Conversation;
import dev.legio.backend.http.HttpBackend;
import dev.legio.backend.http.HttpBackendContract;
import dev.legio.backend.http.HttpBackendHarness;
import dev.legio.config.LegioConfig;
import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.LoopbackHttpServer.Reply;
import dev.legio.testing.ScriptedTools;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The Ollama back-end: the {@link HttpBackendContract} over Ollama's {@code /api/chat} protocol
 * (NDJSON lines), and what is its own ({@code num_ctx}, {@code keep_alive}, prompt and eval counts,
 * error lines, auto-compact over its protocol).
 */
class OllamaBackendTest extends HttpBackendContract {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  protected Factory factory() {
    return OllamaBackend::create;
  }

  @Override
  protected LegioConfig.Backend config(String serverUrl) {
    return LegioConfig.Backend.of("ollama").withBaseUrl(serverUrl).withApiKey(KEY);
  }

  @Override
  protected String chatPath() {
    return "/api/chat";
  }

  @Override
  protected Reply answer(String text, long input, long output) {
    return answer(input, output, text);
  }

  @Override
  protected Reply toolCall(String id, String name, String inputJson) {
    try {
      return toolCall(name, inputJson);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Override
  protected Reply error(int status, String message, Map<String, String> headers) {
    return Reply.json(status, JSON.createObjectNode().put("error", message).toString(), headers);
  }

  @Override
  protected Reply cut(String partial) {
    return Reply.cut("application/x-ndjson", List.of(line(partial)));
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
      texts.add(m.path("content").asText());
      wire.add(m.toString());
    }
    List<String> tools = new ArrayList<>();
    body.path("tools").forEach(t -> tools.add(t.at("/function/name").asText()));
    return new Sent(request.path(), system, texts, wire, tools);
  }

  private static LegioConfig.Backend with(
      LegioConfig.Backend c, long summariseAfter, Map<String, Integer> windows) {
    return new LegioConfig.Backend(
        c.kind(),
        c.model(),
        c.baseUrl(),
        c.apiKeyEnv(),
        c.apiKey(),
        c.connectTimeout(),
        c.requestTimeout(),
        c.maxRetries(),
        c.maxOutputTokens(),
        summariseAfter,
        windows,
        c.keepAlive(),
        c.countTokens());
  }

  private static String line(String content) {
    ObjectNode c = JSON.createObjectNode().put("model", "llama3.2");
    c.put("created_at", "2026-03-01T09:00:00Z");
    c.putObject("message").put("role", "assistant").put("content", content);
    return c.put("done", false) + "\n";
  }

  private static String done(Long promptEval, long eval) {
    ObjectNode c = JSON.createObjectNode().put("model", "llama3.2");
    c.putObject("message").put("role", "assistant").put("content", "");
    c.put("done", true).put("done_reason", "stop");
    if (promptEval != null) {
      c.put("prompt_eval_count", promptEval);
    }
    return c.put("eval_count", eval) + "\n";
  }

  private static Reply answer(long promptEval, long eval, String... pieces) {
    List<String> lines = new ArrayList<>();
    for (String p : pieces) {
      lines.add(line(p));
    }
    lines.add(done(promptEval, eval));
    return Reply.stream("application/x-ndjson", lines);
  }

  private static Reply toolCall(String name, String argumentsJson) throws Exception {
    ObjectNode c = JSON.createObjectNode().put("model", "llama3.2");
    ObjectNode m = c.putObject("message").put("role", "assistant").put("content", "");
    ObjectNode f = m.putArray("tool_calls").addObject().putObject("function");
    f.put("name", name).set("arguments", JSON.readTree(argumentsJson));
    c.put("done", false);
    return Reply.stream("application/x-ndjson", List.of(c + "\n", done(30L, 10)));
  }

  @Test
  void aTurnStreamsNdjsonAndReportsPromptAndEvalCountsAsUsage() {
    h.server.enqueue(answer(26, 5, "Ave, ", "Caesar."));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    TurnResult result = session.send("Report", events);

    assertThat(result.text()).isEqualTo("Ave, Caesar.");
    assertThat(events.text()).isEqualTo("Ave, Caesar.");
    assertThat(result.usage().inputTokens()).isEqualTo(26);
    assertThat(result.usage().outputTokens()).isEqualTo(5);
    assertThat(result.usage().estimated()).isFalse();
    JsonNode body = h.server.requests().get(0).json();
    assertThat(h.server.requests().get(0).path()).isEqualTo("/api/chat");
    assertThat(body.get("model").asText()).isEqualTo("llama3.2");
    assertThat(body.get("stream").asBoolean()).isTrue();
    assertThat(body.get("keep_alive").asText()).isEqualTo("5m");
    assertThat(body.at("/options/num_ctx").asInt()).isEqualTo(8192);
    assertThat(body.get("messages")).hasSize(2);
    assertThat(body.at("/messages/0/role").asText()).isEqualTo("system");
    assertThat(body.at("/messages/0/content").asText()).isEqualTo("You are vorenus, a centurio.");
    assertThat(body.at("/messages/1/content").asText()).isEqualTo("Report");
    assertThat(h.stored(session).contextTokens()).isEqualTo(31);
  }

  @Test
  void theAgentsModelAndTheConfiguredWindowAreSent() {
    h.server.enqueue(answer(1, 1, "ok"));
    HttpBackend backend = backend(with(config(), 0, Map.of("qwen2.5", 32768)), new ScriptedTools());
    BackendSession session =
        backend.open(
            new dev.legio.backend.SessionSpec("pullo", "p", "qwen2.5:14b", "operator", null));
    session.send("x", new HttpBackendHarness.Events());
    JsonNode body = h.server.requests().get(0).json();
    assertThat(body.get("model").asText()).isEqualTo("qwen2.5:14b");
    assertThat(body.at("/options/num_ctx").asInt()).isEqualTo(32768);
  }

  @Test
  void withoutPromptEvalCountTheInputIsEstimated() {
    h.server.enqueue(answer(0, 3, "cached"));
    h.server.enqueue(Reply.stream("application/x-ndjson", List.of(line("again"), done(null, 2))));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    session.send("first", new HttpBackendHarness.Events());
    TurnResult second = session.send("second", new HttpBackendHarness.Events());
    assertThat(second.usage().estimated()).isTrue();
    assertThat(second.usage().inputTokens()).isPositive();
    assertThat(second.usage().outputTokens()).isEqualTo(2);
  }

  @Test
  void toolCallsRunAndTheirResultsGoBackAsToolMessages() throws Exception {
    h.server.enqueue(
        toolCall("memoria_search", "{\"query\":\"grain\"}"), answer(40, 4, "Grain for 9 days."));
    ScriptedTools tools =
        new ScriptedTools(ScriptedTools.memoriaSearch(query -> "acta: grain 9 days"));
    BackendSession session = backend(config(), tools).open(HttpBackendHarness.spec("pullo", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    assertThat(session.send("Grain?", events).text()).isEqualTo("Grain for 9 days.");

    assertThat(tools.calls)
        .containsExactly(new ScriptedTools.Call("memoria_search", "{\"query\":\"grain\"}"));
    assertThat(events.toolCalls()).extracting(c -> c.name()).containsExactly("memoria_search");
    JsonNode first = h.server.requests().get(0).json();
    assertThat(first.at("/tools/0/function/name").asText()).isEqualTo("memoria_search");
    assertThat(first.at("/tools/0/function/parameters/properties/query/type").asText())
        .isEqualTo("string");
    JsonNode messages = h.server.requests().get(1).json().get("messages");
    assertThat(messages.at("/2/tool_calls/0/function/arguments/query").asText()).isEqualTo("grain");
    assertThat(messages.at("/3/role").asText()).isEqualTo("tool");
    assertThat(messages.at("/3/tool_name").asText()).isEqualTo("memoria_search");
    assertThat(messages.at("/3/content").asText()).isEqualTo("acta: grain 9 days");
  }

  /** Auto-compact keeping the 2 most recent messages, so that short tests have older rounds. */
  private static final LegioConfig.Context KEEP_TWO =
      new LegioConfig.Context(true, 0.9, 50_000, 2, 3);

  private HttpBackend compacting(LegioConfig.Backend config) {
    HttpBackend b =
        OllamaBackend.create(
            config, KEEP_TWO, h.conversations(), spec -> new ScriptedTools(), h.clock, h.sleeper);
    backends.add(b);
    return b;
  }

  @Test
  void pastTheCompactThresholdTheOlderRoundsAreSummarisedIntoANewConversation() {
    // Window 1000 tokens: compact past 900. The second turn leaves 800 + 150 = 950.
    h.server.enqueue(
        answer(300, 50, "Report one."),
        answer(800, 150, "Report two."),
        answer(900, 60, "Summary: vorenus scouted the road; all clear."),
        answer(120, 5, "Next."));
    HttpBackend backend = compacting(with(config(), 0, Map.of("llama3.2", 1000)));
    BackendSession session = backend.open(HttpBackendHarness.spec("vorenus", null));
    session.send("Scout", new HttpBackendHarness.Events());
    session.send("Further", new HttpBackendHarness.Events());
    assertThat(h.server.requests()).as("350 tokens: no compaction yet").hasSize(2);
    String before = session.backendSessionId();
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    TurnResult result = session.send("And now?", events);

    assertThat(result.text()).isEqualTo("Next.");
    assertThat(events.all)
        .filteredOn(e -> e instanceof BackendEvent.CompactionEnded)
        .singleElement()
        .satisfies(
            e -> assertThat(((BackendEvent.CompactionEnded) e).messagesCompacted()).isEqualTo(2));
    assertThat(events.text()).isEqualTo("Next.");
    JsonNode summarising = h.server.requests().get(2).json();
    assertThat(summarising.has("tools")).isFalse();
    assertThat(summarising.get("messages")).hasSize(2);
    assertThat(summarising.at("/messages/0/content").asText())
        .isEqualTo(ContextSummary.INSTRUCTION);
    assertThat(summarising.at("/messages/1/content").asText())
        .contains("Scout", "Report one.")
        .doesNotContain("Further", "Report two.");

    JsonNode next = h.server.requests().get(3).json().get("messages");
    assertThat(next).hasSize(5);
    assertThat(next.at("/0/content").asText()).isEqualTo("You are vorenus, a centurio.");
    assertThat(next.at("/1/role").asText()).isEqualTo("system");
    assertThat(next.at("/1/content").asText())
        .startsWith(ChatRequest.SUMMARY_INTRODUCTION)
        .contains("<context_summary>\nSummary: vorenus scouted the road; all clear.\n");
    assertThat(next.at("/2/content").asText()).isEqualTo("Further");
    assertThat(next.at("/3/content").asText()).isEqualTo("Report two.");
    assertThat(next.at("/4/content").asText()).isEqualTo("And now?");

    assertThat(session.backendSessionId()).isNotEqualTo(before);
    Conversation now = h.stored(session);
    assertThat(now.previousId()).isEqualTo(UUID.fromString(before));
    assertThat(ContextSummary.text(now.summary()))
        .isEqualTo("Summary: vorenus scouted the road; all clear.");
    assertThat(now.turns()).hasSize(2);
    assertThat(h.conversations().find(UUID.fromString(before)).orElseThrow().turns()).hasSize(2);
  }

  @Test
  void summariseAfterTokensCompactsEarlierThanTheWindow() {
    h.server.enqueue(
        answer(100, 10, "A."), answer(400, 150, "B."), answer(500, 20, "S."), answer(50, 1, "C."));
    HttpBackend backend = compacting(with(config(), 500, Map.of()));
    BackendSession session = backend.open(HttpBackendHarness.spec("vorenus", null));
    session.send("one", new HttpBackendHarness.Events());
    String first = session.backendSessionId();
    session.send("two", new HttpBackendHarness.Events());
    session.send("three", new HttpBackendHarness.Events());
    assertThat(h.server.requests()).hasSize(4);
    assertThat(session.backendSessionId()).isNotEqualTo(first);

    // A restart resumes the compacted conversation, summary included.
    h.server.enqueue(answer(60, 1, "D."));
    BackendSession resumed =
        compacting(with(config(), 500, Map.of()))
            .open(HttpBackendHarness.spec("vorenus", session.backendSessionId()));
    resumed.send("four", new HttpBackendHarness.Events());
    JsonNode messages = h.server.requests().get(4).json().get("messages");
    assertThat(messages.at("/1/content").asText()).contains("S.");
    assertThat(messages)
        .extracting(m -> m.get("content").asText())
        .endsWith("two", "B.", "three", "C.", "four");
  }

  @Test
  void whenCompactingFailsTheTurnGoesOnWithTheWholeConversation() {
    h.server.enqueue(
        answer(100, 10, "Short."),
        answer(800, 150, "Long."),
        Reply.json(400, "{\"error\":\"context too long\"}"),
        answer(960, 3, "Still here."));
    HttpBackend backend = compacting(with(config(), 0, Map.of("llama3.2", 1000)));
    BackendSession session = backend.open(HttpBackendHarness.spec("vorenus", null));
    session.send("one", new HttpBackendHarness.Events());
    session.send("two", new HttpBackendHarness.Events());
    String id = session.backendSessionId();
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    TurnResult result = session.send("three", events);

    assertThat(result.text()).isEqualTo("Still here.");
    assertThat(events.all)
        .filteredOn(e -> e instanceof BackendEvent.CompactionFailed)
        .singleElement()
        .satisfies(
            e -> {
              BackendEvent.CompactionFailed f = (BackendEvent.CompactionFailed) e;
              assertThat(f.reason()).contains("context too long");
              assertThat(f.consecutiveFailures()).isEqualTo(1);
              assertThat(f.disabled()).isFalse();
            });
    assertThat(result.context().compactionFailures()).isEqualTo(1);
    assertThat(session.backendSessionId()).isEqualTo(id);
    assertThat(h.server.requests().get(3).json().get("messages")).hasSize(6);
  }

  @Test
  void anErrorLineInTheStreamIsAServerErrorRetriedThenFailingTheTurn() {
    for (int i = 0; i < 4; i++) {
      h.server.enqueue(
          Reply.stream(
              "application/x-ndjson", List.of("{\"error\":\"model runner has crashed\"}\n")));
    }
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("after 4 attempts")
        .hasMessageContaining("model runner has crashed");
  }

  @Test
  void aStreamThatStopsBeforeDoneIsMalformedAndNothingIsStored() {
    h.server.enqueue(Reply.stream("application/x-ndjson", List.of(line("par"), line("tial"))));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("no done");
    assertThat(h.stored(session).turns()).isEmpty();
  }

  @Test
  void aLineThatIsNotJsonIsMalformed() {
    h.server.enqueue(Reply.stream("application/x-ndjson", List.of("{\"message\": {\"conte\n")));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("not JSON");
    assertThat(h.sleeper.waits).isEmpty();
  }

  @Test
  void aStalledStreamTimesOut() {
    LegioConfig.Backend c = config();
    LegioConfig.Backend quick =
        new LegioConfig.Backend(
            c.kind(),
            c.model(),
            c.baseUrl(),
            c.apiKeyEnv(),
            c.apiKey(),
            Duration.ofSeconds(2),
            Duration.ofMillis(400),
            0,
            c.maxOutputTokens(),
            0,
            Map.of(),
            c.keepAlive(),
            false);
    h.server.enqueue(
        new Reply.Stream(
            "application/x-ndjson",
            List.of(line("slow"), line("er")),
            Duration.ofMillis(1500),
            false));
    BackendSession session =
        backend(quick, new ScriptedTools()).open(HttpBackendHarness.spec("vorenus", null));
    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("took longer than");
  }
}
