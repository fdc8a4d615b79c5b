package dev.legio.backend.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionTools;
import dev.legio.backend.TurnResult;
import dev.legio.config.LegioConfig;
import dev.legio.testing.LogCapture;
import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.LoopbackHttpServer.Reply;
import dev.legio.testing.ScriptedTools;
import dev.legio.tools.Toolset;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every back-end over a chat API ({@link HttpBackend}) does, whatever the vendor: each
 * vendor's test extends this class and speaks its wire protocol on a loopback server ({@link
 * HttpBackendHarness#server}), so the same scenarios run over the Anthropic, OpenAI and Ollama
 * protocols. The vendor tests keep only what is their own (headers, wire shapes, usage fields).
 */
public abstract class HttpBackendContract {
  /** The API key every vendor is configured with; it must never show. */
  protected static final String KEY = "sk-contract-0123456789abcdef";

  @TempDir protected Path dir;
  protected HttpBackendHarness h;

  /** The back-ends a test made, closed after it. */
  protected final List<HttpBackend> backends = new ArrayList<>();

  // ------------------------------------------------------------------ what each vendor provides

  /** A request to the vendor's chat endpoint, read back in Legio's terms. */
  public record Sent(
      String path, String system, List<String> texts, List<String> wire, List<String> tools) {}

  /** How a vendor's back-end is created ({@code AnthropicBackend::create}, ...). */
  @FunctionalInterface
  public interface Factory {
    HttpBackend create(
        LegioConfig.Backend config,
        ConversationStore conversations,
        SessionTools tools,
        Clock clock,
        RetryPolicy.Sleeper sleeper);
  }

  protected abstract Factory factory();

  /**
   * The vendor's {@code [backend]} section for a server at {@code serverUrl}, with {@link #KEY}.
   */
  protected abstract LegioConfig.Backend config(String serverUrl);

  /** The path of the vendor's chat endpoint ({@code /v1/messages}). */
  protected abstract String chatPath();

  /** A streamed final answer reporting {@code input} and {@code output} tokens. */
  protected abstract Reply answer(String text, long input, long output);

  /** A streamed answer calling one tool, without text, reporting 30 input and 10 output tokens. */
  protected abstract Reply toolCall(String id, String name, String inputJson);

  /** An HTTP error with the vendor's error body carrying {@code message}. */
  protected abstract Reply error(int status, String message, Map<String, String> headers);

  /** A stream that sends {@code partial} as answer text and then drops the connection. */
  protected abstract Reply cut(String partial);

  /**
   * How the vendor's protocol shows the model a failed tool's result {@code text}: OpenAI and
   * Ollama have no error flag, so the text says {@code Error: }; Anthropic flags it ({@code
   * is_error}) and sends the text as it is.
   */
  protected String failedToolResult(String text) {
    return "Error: " + text;
  }

  /**
   * A request as {@link Sent}: the system prompt, each message's text, each message's wire form
   * (what must be sent again unchanged; without cache markers, which move), the offered tools.
   */
  protected abstract Sent read(LoopbackHttpServer.Request request);

  // ------------------------------------------------------------------ the harness

  @BeforeEach
  void startHarness() {
    h = new HttpBackendHarness(dir);
  }

  @AfterEach
  void stopHarness() {
    backends.forEach(HttpBackend::close);
    h.close();
  }

  protected LegioConfig.Backend config() {
    return config(h.server.baseUrl());
  }

  protected HttpBackend backend(LegioConfig.Backend config, Toolset tools) {
    HttpBackend b = factory().create(config, h.conversations(), spec -> tools, h.clock, h.sleeper);
    backends.add(b);
    return b;
  }

  protected HttpBackend backend() {
    return backend(config(), new ScriptedTools());
  }

  /** The requests the chat endpoint received, in order. */
  protected List<Sent> sent() {
    return h.server.requests().stream()
        .filter(r -> r.path().equals(chatPath()))
        .map(this::read)
        .toList();
  }

  private static LegioConfig.Backend withTimeouts(
      LegioConfig.Backend c, Duration connect, Duration request, int retries) {
    return new LegioConfig.Backend(
        c.kind(),
        c.model(),
        c.baseUrl(),
        c.apiKeyEnv(),
        c.apiKey(),
        connect,
        request,
        retries,
        c.maxOutputTokens(),
        c.summariseAfterTokens(),
        c.contextWindows(),
        c.keepAlive(),
        c.countTokens());
  }

  // ------------------------------------------------------------------ the contract

  @Test
  void aTurnStreamsItsAnswerReportsTheUsageAndIsStoredWhole() {
    h.server.enqueue(answer("Scouts report a clear road.", 100, 7));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    TurnResult result = session.send("Scout the north road", events);

    assertThat(result.text()).isEqualTo("Scouts report a clear road.");
    assertThat(events.text()).isEqualTo("Scouts report a clear road.");
    assertThat(events.statuses()).first().asString().contains("Thinking");
    assertThat(result.usage().inputTokens()).isEqualTo(100);
    assertThat(result.usage().outputTokens()).isEqualTo(7);
    assertThat(result.usage().estimated()).isFalse();
    assertThat(result.context().tokens()).isEqualTo(107);

    Sent request = sent().get(0);
    assertThat(request.path()).isEqualTo(chatPath());
    assertThat(request.system()).isEqualTo("You are vorenus, a centurio.");
    assertThat(request.texts()).containsExactly("Scout the north road");
    assertThat(request.tools()).isEmpty();

    assertThat(h.stored(session).turns()).hasSize(1);
    assertThat(h.stored(session).turns().get(0).messages())
        .containsExactly(
            new ChatMessage.User("Scout the north road"),
            new ChatMessage.Assistant("Scouts report a clear road.", List.of()));
    assertThat(h.stored(session).contextTokens()).isEqualTo(107);
  }

  @Test
  void aRestartBetweenTurnsSendsExactlyTheSameConversation() {
    h.server.enqueue(
        answer("First answer.", 10, 2), answer("Second answer.", 20, 2), answer("Third.", 30, 2));
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

    Sent second = sent().get(1);
    Sent third = sent().get(2);
    assertThat(third.system()).isEqualTo(second.system());
    assertThat(third.wire()).hasSize(second.wire().size() + 2);
    assertThat(third.wire().subList(0, second.wire().size())).isEqualTo(second.wire());
    assertThat(third.texts())
        .containsExactly("one", "First answer.", "two", "Second answer.", "three");
  }

  @Test
  void anUnknownResumeIdStartsANewConversation() {
    BackendSession session =
        backend().open(HttpBackendHarness.spec("vorenus", "0190a1b2-0000-7000-8000-000000000000"));
    assertThat(session.resumed()).isFalse();
    assertThat(session.backendSessionId()).isNotEqualTo("0190a1b2-0000-7000-8000-000000000000");
  }

  @Test
  void theToolLoopRunsToolsSendsResultsBackAndStoresTheWholeTurn() {
    h.server.enqueue(
        toolCall("call_abc", "memoria_search", "{\"query\":\"north road\"}"),
        answer("The road was clear on the ides.", 60, 9));
    ScriptedTools tools =
        new ScriptedTools(ScriptedTools.memoriaSearch(query -> "acta: road clear (ides)"));
    BackendSession session = backend(config(), tools).open(HttpBackendHarness.spec("pullo", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    TurnResult result = session.send("What do we know about the north road?", events);

    assertThat(tools.calls)
        .containsExactly(new ScriptedTools.Call("memoria_search", "{\"query\":\"north road\"}"));
    assertThat(events.toolCalls()).extracting(c -> c.name()).containsExactly("memoria_search");
    assertThat(result.text()).isEqualTo("The road was clear on the ides.");
    assertThat(result.usage().inputTokens()).isEqualTo(30 + 60);
    assertThat(result.usage().outputTokens()).isEqualTo(10 + 9);
    assertThat(sent().get(0).tools()).containsExactly("memoria_search");
    List<String> second = sent().get(1).texts();
    assertThat(second).hasSize(3);
    assertThat(second.get(0)).isEqualTo("What do we know about the north road?");
    assertThat(second.get(2)).isEqualTo("acta: road clear (ides)");
    assertThat(h.stored(session).turns().get(0).messages()).hasSize(4);
  }

  @Test
  void aToolThatFailsTellsTheModelWhy() {
    h.server.enqueue(toolCall("call_1", "memoria_forget", "{}"), answer("I cannot forget.", 40, 4));
    ScriptedTools tools = new ScriptedTools(ScriptedTools.memoriaSearch());
    BackendSession session = backend(config(), tools).open(HttpBackendHarness.spec("pullo", null));

    session.send("Forget it", new HttpBackendHarness.Events());

    assertThat(sent().get(1).texts().get(2))
        .startsWith(failedToolResult("no tool named 'memoria_forget'"))
        .endsWith("Tools: memoria_search");
  }

  @Test
  void aModelThatNeverStopsCallingToolsFailsTheTurnAndStoresNothing() {
    for (int i = 0; i < 17; i++) {
      h.server.enqueue(toolCall("call_" + i, "memoria_search", "{\"query\":\"again\"}"));
    }
    ScriptedTools tools = new ScriptedTools(ScriptedTools.memoriaSearch(query -> "nothing"));
    BackendSession session = backend(config(), tools).open(HttpBackendHarness.spec("pullo", null));

    assertThatThrownBy(() -> session.send("loop", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("still calling tools after 16 rounds");
    assertThat(tools.calls).hasSize(16);
    assertThat(h.stored(session).turns()).isEmpty();
  }

  @Test
  void rateLimitIsRetriedAfterTheServersRetryAfter() {
    h.server.enqueue(
        error(429, "Rate limit reached", Map.of("retry-after", "7")), answer("Done.", 5, 1));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    assertThat(session.send("go", events).text()).isEqualTo("Done.");
    assertThat(h.sleeper.waits).containsExactly(Duration.ofSeconds(7));
    assertThat(events.statuses()).anyMatch(s -> s.contains("rate limited; retrying in 7 s"));
    assertThat(sent()).hasSize(2);
  }

  @Test
  void aServerErrorIsRetriedAndThenSucceeds() {
    h.server.enqueue(error(500, "busy", Map.of()), answer("ok", 5, 1));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    assertThat(session.send("go", events).text()).isEqualTo("ok");
    assertThat(h.sleeper.waits).containsExactly(Duration.ofSeconds(1));
    assertThat(events.statuses()).anyMatch(s -> s.contains("server error; retrying in 1 s"));
  }

  @Test
  void serverErrorsAreRetriedWithBackOffThenFailTheTurnLeavingTheConversationUnchanged() {
    for (int i = 0; i < 4; i++) {
      h.server.enqueue(error(503, "upstream overloaded", Map.of()));
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
    h.server.enqueue(error(404, "The model `gpt-9` does not exist", Map.of()));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));

    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("HTTP 404")
        .hasMessageContaining("The model `gpt-9` does not exist")
        .hasMessageContaining("[backend] model");
    assertThat(h.sleeper.waits).isEmpty();
    assertThat(sent()).hasSize(1);
    assertThat(h.stored(session).turns()).isEmpty();
  }

  @Test
  void aStreamCutMidAnswerFailsTheTurnWithoutRetryAndTheNextTurnSendsTheOldConversation() {
    h.server.enqueue(answer("Fine.", 5, 1), cut("Half an ans"), answer("Whole answer.", 9, 2));
    BackendSession session = backend().open(HttpBackendHarness.spec("vorenus", null));
    session.send("one", new HttpBackendHarness.Events());
    HttpBackendHarness.Events events = new HttpBackendHarness.Events();

    assertThatThrownBy(() -> session.send("two", events))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("the answer broke off while it was streaming");
    assertThat(events.text()).isEqualTo("Half an ans");
    assertThat(h.sleeper.waits).isEmpty();
    assertThat(h.stored(session).turns()).hasSize(1);

    session.send("two again", new HttpBackendHarness.Events());
    assertThat(sent().get(2).texts()).containsExactly("one", "Fine.", "two again");
  }

  @Test
  void connectionRefusedIsRetriedThenSaysToCheckTheBaseUrl() {
    LegioConfig.Backend refused = config("http://127.0.0.1:" + LoopbackHttpServer.closedPort());
    BackendSession session =
        backend(refused, new ScriptedTools()).open(HttpBackendHarness.spec("vorenus", null));

    assertThatThrownBy(() -> session.send("go", new HttpBackendHarness.Events()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("could not be reached")
        .hasMessageContaining("base_url");
    assertThat(h.sleeper.waits).hasSize(3);
  }

  @Test
  void aServerThatDoesNotAnswerTimesOut() {
    h.server.enqueue(Reply.stall(Duration.ofSeconds(3)));
    LegioConfig.Backend quick =
        withTimeouts(config(), Duration.ofSeconds(2), Duration.ofMillis(300), 0);
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
        error(429, "slow down, " + KEY, Map.of("retry-after", "1")),
        error(401, "Incorrect API key provided: " + KEY, Map.of()));
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
}
