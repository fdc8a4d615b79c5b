package dev.legio.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.testing.FakeMessagesApi.Block;
import dev.legio.testing.FakeMessagesApi.Reply;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FakeMessagesApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final FakeMessagesApi api = FakeMessagesApi.start();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void close() {
    api.close();
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(api.baseUrl() + path))
            .header("x-api-key", "dummy")
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String request(boolean stream, String userText) {
    return """
        {"model":"claude-test","max_tokens":100,"stream":%s,
         "system":[{"type":"text","text":"You are vorenus."}],
         "messages":[{"role":"user","content":[{"type":"text","text":"%s"}]}]}
        """
        .formatted(stream, userText);
  }

  /** The SSE frames of a response as (event name, data JSON) pairs. */
  private static List<Object[]> events(String body) throws Exception {
    List<Object[]> out = new ArrayList<>();
    for (String frame : body.split("\n\n")) {
      if (frame.isBlank()) {
        continue;
      }
      String[] lines = frame.split("\n");
      String name = lines[0].substring("event: ".length());
      JsonNode data = JSON.readTree(lines[1].substring("data: ".length()));
      assertThat(data.path("type").asText()).isEqualTo(name);
      out.add(new Object[] {name, data});
    }
    return out;
  }

  @Test
  void streamsScriptedTextAndToolUseInTheRealEventOrder() throws Exception {
    api.enqueue(
        Reply.of(
                new Block.Thinking("Let me think."),
                new Block.Text("Scouting the north road now, Caesar."),
                new Block.ToolUse("toolu_1", "list_edicta", "{\"filter\":\"roads\"}"))
            .withUsage(1234, 56, 7, 8));

    HttpResponse<String> response = post("/v1/messages", request(true, "Scout"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
    List<Object[]> events = events(response.body());
    List<String> names = events.stream().map(e -> (String) e[0]).toList();
    assertThat(names.get(0)).isEqualTo("message_start");
    assertThat(names.subList(names.size() - 2, names.size()))
        .containsExactly("message_delta", "message_stop");
    assertThat(names.stream().filter("content_block_start"::equals)).hasSize(3);
    assertThat(names.stream().filter("content_block_stop"::equals)).hasSize(3);

    StringBuilder text = new StringBuilder();
    StringBuilder toolInput = new StringBuilder();
    JsonNode start = null;
    JsonNode delta = null;
    for (Object[] e : events) {
      JsonNode data = (JsonNode) e[1];
      switch ((String) e[0]) {
        case "message_start" -> start = data;
        case "message_delta" -> delta = data;
        case "content_block_delta" -> {
          JsonNode d = data.get("delta");
          if (d.path("type").asText().equals("text_delta")) {
            text.append(d.get("text").asText());
          } else if (d.path("type").asText().equals("input_json_delta")) {
            toolInput.append(d.get("partial_json").asText());
          }
        }
        default -> {}
      }
    }
    assertThat(text.toString()).isEqualTo("Scouting the north road now, Caesar.");
    assertThat(JSON.readTree(toolInput.toString()).get("filter").asText()).isEqualTo("roads");
    assertThat(start.at("/message/usage/input_tokens").asLong()).isEqualTo(1234);
    assertThat(start.at("/message/usage/cache_read_input_tokens").asLong()).isEqualTo(7);
    assertThat(start.at("/message/usage/cache_creation_input_tokens").asLong()).isEqualTo(8);
    assertThat(start.at("/message/model").asText()).isEqualTo("claude-test");
    assertThat(delta.at("/delta/stop_reason").asText()).isEqualTo("tool_use");
    assertThat(delta.at("/usage/output_tokens").asLong()).isEqualTo(56);
  }

  @Test
  void answersPlainJsonWhenNotStreamingAndRecordsTheParsedRequest() throws Exception {
    api.enqueue(Reply.text("Done.").withUsage(10, 2, 0, 0));

    HttpResponse<String> response = post("/v1/messages", request(false, "Report"));

    JsonNode message = JSON.readTree(response.body());
    assertThat(message.get("type").asText()).isEqualTo("message");
    assertThat(message.at("/content/0/text").asText()).isEqualTo("Done.");
    assertThat(message.at("/usage/output_tokens").asLong()).isEqualTo(2);
    FakeMessagesApi.Request recorded = api.requests().get(0);
    assertThat(recorded.isMessages()).isTrue();
    assertThat(recorded.systemText()).isEqualTo("You are vorenus.");
    assertThat(recorded.lastUserText()).isEqualTo("Report");
    assertThat(recorded.header("X-Api-Key")).isEqualTo("dummy");
    assertThat(api.scriptedRequests()).hasSize(1);
  }

  @Test
  void faultsCarryAnthropicErrorBodies() throws Exception {
    api.enqueue(Reply.overloaded(), Reply.rateLimited(), Reply.serverError());

    HttpResponse<String> overloaded = post("/v1/messages", request(true, "a"));
    HttpResponse<String> limited = post("/v1/messages", request(true, "b"));
    HttpResponse<String> broken = post("/v1/messages", request(false, "c"));

    assertThat(overloaded.statusCode()).isEqualTo(529);
    assertThat(JSON.readTree(overloaded.body()).at("/error/type").asText())
        .isEqualTo("overloaded_error");
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().firstValue("retry-after")).isPresent();
    assertThat(broken.statusCode()).isEqualTo(500);
    // The script is used up: the fallback answers.
    assertThat(post("/v1/messages", request(false, "d")).body()).contains("\"ok\"");
  }

  @Test
  void anErrorEventCanInterruptAStream() throws Exception {
    api.enqueue(Reply.streamError("overloaded_error", "Overloaded"));

    List<Object[]> events = events(post("/v1/messages", request(true, "a")).body());

    assertThat(events.stream().map(e -> (String) e[0])).containsExactly("message_start", "error");
  }

  @Test
  void aHangLastsUntilReleased() throws Exception {
    api.enqueue(Reply.hang());
    HttpClient impatient = HttpClient.newHttpClient();
    HttpRequest req =
        HttpRequest.newBuilder(URI.create(api.baseUrl() + "/v1/messages"))
            .timeout(Duration.ofMillis(300))
            .POST(HttpRequest.BodyPublishers.ofString(request(true, "a")))
            .build();

    try {
      impatient.send(req, HttpResponse.BodyHandlers.ofString());
      throw new AssertionError("the hanging request was answered");
    } catch (HttpTimeoutException expected) {
      // the fake held the request
    }
    api.releaseHangs();
    assertThat(post("/v1/messages", request(false, "b")).statusCode()).isEqualTo(200);
  }

  @Test
  void scriptAnswersOnlyTheRequestsItsFilterAccepts() throws Exception {
    api.scriptFor(r -> r.lastUserText().startsWith("main"))
        .fallback(r -> Reply.text("side answer"))
        .enqueue(Reply.text("main answer"));

    String side = post("/v1/messages", request(false, "title please")).body();
    String main = post("/v1/messages", request(false, "main turn")).body();

    assertThat(side).contains("side answer");
    assertThat(main).contains("main answer");
    assertThat(api.scriptedRequests())
        .extracting(FakeMessagesApi.Request::lastUserText)
        .containsExactly("main turn");
  }

  @Test
  void otherEndpointsAreRecordedAndAnswered() throws Exception {
    HttpResponse<String> count = post("/v1/messages/count_tokens", request(false, "x"));
    HttpResponse<String> models =
        http.send(
            HttpRequest.newBuilder(URI.create(api.baseUrl() + "/v1/models")).build(),
            HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> unknown = post("/api/hello", "{}");

    assertThat(JSON.readTree(count.body()).get("input_tokens").asLong()).isPositive();
    assertThat(JSON.readTree(models.body()).get("data").size()).isEqualTo(2);
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(api.requests())
        .extracting(FakeMessagesApi.Request::path)
        .containsExactly("/v1/messages/count_tokens", "/v1/models", "/api/hello");
    assertThat(api.scriptedRequests()).isEmpty();
    assertThat(api.busyNanos()).isPositive();
  }
}
