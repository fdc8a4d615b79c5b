package dev.legio.backend.ollama;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.backend.ContextWindows;
import dev.legio.backend.TokenEstimator;
import dev.legio.backend.Usage;
import dev.legio.backend.http.ChatClient;
import dev.legio.backend.http.ChatMessage;
import dev.legio.backend.http.ChatReply;
import dev.legio.backend.http.ChatRequest;
import dev.legio.backend.http.HttpFailure;
import dev.legio.tools.ToolDefinition;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Ollama's {@code /api/chat}, over the JDK's HTTP client and Jackson (Ollama has no official Java
 * SDK): the answer streams as one JSON object per line, the last one with {@code "done": true} and
 * the usage ({@code prompt_eval_count}: input tokens, {@code eval_count}: output tokens).
 *
 * <p>Each request sets {@code keep_alive} (how long Ollama keeps the model loaded) and {@code
 * options.num_ctx} to the model's context window as Legio counts it ({@link ContextWindows}), so
 * that Ollama neither cuts the conversation at its smaller default nor disagrees with Legio about
 * when to summarise. Ollama leaves {@code prompt_eval_count} out when it reused its cache for the
 * whole prompt; the input is then estimated.
 */
public final class OllamaChat implements ChatClient {
  public static final String DEFAULT_BASE_URL = "http://localhost:11434";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http;
  private final String baseUrl;
  private final URI chat;
  private final Duration requestTimeout;
  private final String keepAlive;
  private final ContextWindows windows;

  public OllamaChat(
      String baseUrl,
      Duration connectTimeout,
      Duration requestTimeout,
      String keepAlive,
      ContextWindows windows) {
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.chat = URI.create(this.baseUrl + "/api/chat");
    this.requestTimeout = requestTimeout;
    this.keepAlive = keepAlive;
    this.windows = windows;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(connectTimeout)
            .version(HttpClient.Version.HTTP_1_1)
            .build();
  }

  @Override
  public String baseUrl() {
    return baseUrl;
  }

  @Override
  public ChatReply send(ChatRequest request, Consumer<String> text) {
    String body = body(request).toString();
    HttpRequest httpRequest =
        HttpRequest.newBuilder(chat)
            .timeout(requestTimeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
            .build();
    long deadline = System.nanoTime() + requestTimeout.toNanos();
    HttpResponse<InputStream> response;
    try {
      response = http.send(httpRequest, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw HttpFailure.fromProblem(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw HttpFailure.of(HttpFailure.Kind.TIMEOUT, "interrupted while waiting for Ollama");
    }
    if (response.statusCode() != 200) {
      throw statusFailure(response);
    }
    // The time-out above covers the response's start; this watchdog covers the rest of the stream.
    InputStream in = response.body();
    boolean[] timedOut = {false};
    Thread watchdog =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    Thread.sleep(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                    timedOut[0] = true;
                    in.close();
                  } catch (InterruptedException | IOException e) {
                    // the stream ended first
                  }
                });
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return read(lines, request, text);
    } catch (IOException e) {
      if (timedOut[0]) {
        throw HttpFailure.of(
            HttpFailure.Kind.TIMEOUT,
            "the answer took longer than " + requestTimeout.toSeconds() + " s");
      }
      throw HttpFailure.fromProblem(e);
    } finally {
      watchdog.interrupt();
    }
  }

  private ChatReply read(BufferedReader lines, ChatRequest request, Consumer<String> text)
      throws IOException {
    StringBuilder answer = new StringBuilder();
    List<ChatMessage.ToolUse> uses = new ArrayList<>();
    String line;
    while ((line = lines.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode chunk;
      try {
        chunk = JSON.readTree(line);
      } catch (JsonProcessingException e) {
        throw HttpFailure.of(
            HttpFailure.Kind.MALFORMED,
            "a line of the stream is not JSON (" + e.getOriginalMessage() + ")");
      }
      if (chunk.hasNonNull("error")) {
        throw HttpFailure.of(
            HttpFailure.Kind.SERVER, "Ollama reported an error: " + chunk.get("error").asText());
      }
      JsonNode message = chunk.path("message");
      String piece = message.path("content").asText("");
      if (!piece.isEmpty()) {
        answer.append(piece);
        text.accept(piece);
      }
      for (JsonNode call : message.path("tool_calls")) {
        JsonNode function = call.path("function");
        String name = function.path("name").asText("");
        if (name.isEmpty()) {
          throw HttpFailure.of(HttpFailure.Kind.MALFORMED, "a tool call came without a name");
        }
        JsonNode arguments = function.path("arguments");
        String input =
            arguments.isTextual()
                ? arguments.asText()
                : arguments.isObject() ? arguments.toString() : "{}";
        String id = call.path("id").asText("");
        uses.add(new ChatMessage.ToolUse(id.isEmpty() ? "call_" + uses.size() : id, name, input));
      }
      if (chunk.path("done").asBoolean(false)) {
        return new ChatReply(answer.toString(), uses, usage(chunk, request, answer));
      }
    }
    throw HttpFailure.of(
        HttpFailure.Kind.MALFORMED, "the stream ended before the answer was complete (no done)");
  }

  private static Usage usage(JsonNode done, ChatRequest request, CharSequence answer) {
    long output =
        done.has("eval_count") ? done.get("eval_count").asLong() : TokenEstimator.of(answer);
    if (done.has("prompt_eval_count")) {
      return new Usage(done.get("prompt_eval_count").asLong(), output, 0, 0, false);
    }
    long chars = request.systemPrompt().length();
    for (ChatMessage m : request.messages()) {
      chars += m.text().length();
    }
    return new Usage(TokenEstimator.ofChars(chars), output, 0, 0, true);
  }

  ObjectNode body(ChatRequest request) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", request.model());
    body.put("stream", true);
    body.put("keep_alive", keepAlive);
    body.putObject("options").put("num_ctx", windows.of(request.model()));
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", request.systemPrompt());
    if (request.summaryBlock() != null) {
      messages.addObject().put("role", "system").put("content", request.summaryBlock());
    }
    for (ChatMessage message : request.messages()) {
      switch (message) {
        case ChatMessage.User u ->
            messages.addObject().put("role", "user").put("content", u.text());
        case ChatMessage.Assistant a -> {
          ObjectNode m = messages.addObject().put("role", "assistant").put("content", a.text());
          if (!a.toolUses().isEmpty()) {
            ArrayNode calls = m.putArray("tool_calls");
            for (ChatMessage.ToolUse use : a.toolUses()) {
              ObjectNode function = calls.addObject().putObject("function");
              function.put("name", use.name());
              function.set("arguments", parseObject(use.inputJson()));
            }
          }
        }
        case ChatMessage.ToolResult r ->
            messages
                .addObject()
                .put("role", "tool")
                .put("tool_name", r.name())
                .put("content", r.error() ? "Error: " + r.text() : r.text());
      }
    }
    if (!request.tools().isEmpty()) {
      ArrayNode tools = body.putArray("tools");
      for (ToolDefinition tool : request.tools()) {
        ObjectNode function = tools.addObject().put("type", "function").putObject("function");
        function.put("name", tool.name());
        function.put("description", tool.description());
        function.set("parameters", tool.inputSchema());
      }
    }
    return body;
  }

  private static JsonNode parseObject(String json) {
    try {
      JsonNode node = JSON.readTree(json);
      return node != null && node.isObject() ? node : JSON.createObjectNode();
    } catch (JsonProcessingException e) {
      return JSON.createObjectNode();
    }
  }

  private static HttpFailure statusFailure(HttpResponse<InputStream> response) {
    int status = response.statusCode();
    String text;
    try (InputStream in = response.body()) {
      text = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      text = "";
    }
    String message = text;
    try {
      JsonNode error = JSON.readTree(text);
      if (error != null && error.hasNonNull("error")) {
        message = error.get("error").asText();
      }
    } catch (JsonProcessingException e) {
      // not JSON: the text itself is the message
    }
    if (message.isEmpty()) {
      message = "no message";
    }
    return new HttpFailure(
        HttpFailure.kindOf(status),
        status,
        HttpFailure.parseRetryAfter(response.headers().firstValue("retry-after").orElse(null)),
        message,
        null);
  }

  @Override
  public void close() {
    http.close();
  }
}
