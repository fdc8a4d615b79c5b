package dev.legio.backend.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.Timeout;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIException;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.models.completions.CompletionUsage;
import dev.legio.backend.TokenEstimator;
import dev.legio.backend.Usage;
import dev.legio.backend.http.ChatClient;
import dev.legio.backend.http.ChatMessage;
import dev.legio.backend.http.ChatReply;
import dev.legio.backend.http.ChatRequest;
import dev.legio.backend.http.HttpFailure;
import dev.legio.tools.ToolDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * OpenAI-compatible chat completions (OpenAI, vLLM, llama.cpp server, LM Studio, ...) through the
 * official OpenAI Java SDK: streamed, with tool calls, and usage from the last chunk ({@code
 * stream_options.include_usage}). The SDK's own retries are off: {@link
 * dev.legio.backend.http.HttpBackend} retries.
 *
 * <p>Legio's conversation maps one to one: the system prompt is the first {@code system} message, a
 * summary a second one, then {@code user}, {@code assistant} (with {@code tool_calls}) and {@code
 * tool} messages. Usage: {@code prompt_tokens} less its cached part is the input, the cached part
 * the cache reads (the API caches prefixes by itself; there are no cache markers to send).
 */
public final class OpenAiChat implements ChatClient {
  public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

  private final OpenAIClient client;
  private final String baseUrl;

  /**
   * @param apiKey the API key; servers that need none (a local vLLM, llama.cpp) may get any text
   */
  public OpenAiChat(
      String baseUrl, String apiKey, Duration connectTimeout, Duration requestTimeout) {
    this.baseUrl = baseUrl;
    this.client =
        OpenAIOkHttpClient.builder()
            .baseUrl(baseUrl)
            .apiKey(apiKey)
            .maxRetries(0)
            .timeout(Timeout.builder().connect(connectTimeout).request(requestTimeout).build())
            .build();
  }

  @Override
  public String baseUrl() {
    return baseUrl;
  }

  @Override
  public ChatReply send(ChatRequest request, Consumer<String> text) {
    ChatCompletionCreateParams params = params(request);
    StringBuilder answer = new StringBuilder();
    Map<Long, ToolCallParts> calls = new TreeMap<>();
    CompletionUsage usage = null;
    boolean finished = false;
    try (StreamResponse<ChatCompletionChunk> stream =
        client.chat().completions().createStreaming(params)) {
      Iterator<ChatCompletionChunk> chunks = stream.stream().iterator();
      while (chunks.hasNext()) {
        ChatCompletionChunk chunk = chunks.next();
        if (chunk.usage().isPresent()) {
          usage = chunk.usage().get();
        }
        for (ChatCompletionChunk.Choice choice : chunk.choices()) {
          ChatCompletionChunk.Choice.Delta delta = choice.delta();
          delta
              .content()
              .filter(piece -> !piece.isEmpty())
              .ifPresent(
                  piece -> {
                    answer.append(piece);
                    text.accept(piece);
                  });
          for (ChatCompletionChunk.Choice.Delta.ToolCall call :
              delta.toolCalls().orElse(List.of())) {
            ToolCallParts parts = calls.computeIfAbsent(call.index(), i -> new ToolCallParts());
            call.id().ifPresent(id -> parts.id = id);
            call.function()
                .ifPresent(
                    f -> {
                      f.name().ifPresent(parts.name::append);
                      f.arguments().ifPresent(parts.arguments::append);
                    });
          }
          if (choice.finishReason().isPresent()) {
            finished = true;
          }
        }
      }
    } catch (OpenAIServiceException e) {
      throw serviceFailure(e);
    } catch (OpenAIException | java.io.UncheckedIOException e) {
      throw HttpFailure.fromProblem(e);
    }
    if (!finished) {
      throw HttpFailure.of(
          HttpFailure.Kind.MALFORMED,
          "the stream ended before the answer was complete (no finish_reason)");
    }
    List<ChatMessage.ToolUse> uses = new ArrayList<>();
    for (Map.Entry<Long, ToolCallParts> call : calls.entrySet()) {
      ToolCallParts parts = call.getValue();
      if (parts.name.isEmpty()) {
        throw HttpFailure.of(
            HttpFailure.Kind.MALFORMED, "tool call " + call.getKey() + " came without a name");
      }
      String id = parts.id != null ? parts.id : "call_" + call.getKey();
      uses.add(new ChatMessage.ToolUse(id, parts.name.toString(), parts.arguments.toString()));
    }
    return new ChatReply(answer.toString(), uses, usage(usage, request, answer));
  }

  private static Usage usage(CompletionUsage usage, ChatRequest request, CharSequence answer) {
    if (usage == null) {
      long chars = request.systemPrompt().length();
      for (ChatMessage m : request.messages()) {
        chars += m.text().length();
      }
      return new Usage(TokenEstimator.ofChars(chars), TokenEstimator.of(answer), 0, 0, true);
    }
    long cached = usage.promptTokensDetails().flatMap(d -> d.cachedTokens()).orElse(0L);
    return new Usage(usage.promptTokens() - cached, usage.completionTokens(), cached, 0, false);
  }

  static ChatCompletionCreateParams params(ChatRequest request) {
    ChatCompletionCreateParams.Builder b =
        ChatCompletionCreateParams.builder()
            .model(request.model())
            .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build());
    b.addSystemMessage(request.systemPrompt());
    if (request.summaryBlock() != null) {
      b.addSystemMessage(request.summaryBlock());
    }
    for (ChatMessage message : request.messages()) {
      switch (message) {
        case ChatMessage.User u -> b.addUserMessage(u.text());
        case ChatMessage.Assistant a -> {
          ChatCompletionAssistantMessageParam.Builder m =
              ChatCompletionAssistantMessageParam.builder();
          if (!a.text().isEmpty() || a.toolUses().isEmpty()) {
            m.content(a.text());
          }
          for (ChatMessage.ToolUse use : a.toolUses()) {
            m.addToolCall(
                ChatCompletionMessageFunctionToolCall.builder()
                    .id(use.id())
                    .function(
                        ChatCompletionMessageFunctionToolCall.Function.builder()
                            .name(use.name())
                            .arguments(use.inputJson())
                            .build())
                    .build());
          }
          b.addMessage(m.build());
        }
        case ChatMessage.ToolResult r ->
            b.addMessage(
                ChatCompletionToolMessageParam.builder()
                    .toolCallId(r.toolUseId())
                    .content(r.error() ? "Error: " + r.text() : r.text())
                    .build());
      }
    }
    for (ToolDefinition tool : request.tools()) {
      FunctionParameters.Builder parameters = FunctionParameters.builder();
      tool.inputSchemaMap()
          .forEach((k, v) -> parameters.putAdditionalProperty(k, JsonValue.from(v)));
      b.addTool(
          ChatCompletionFunctionTool.builder()
              .function(
                  FunctionDefinition.builder()
                      .name(tool.name())
                      .description(tool.description())
                      .parameters(parameters.build())
                      .build())
              .build());
    }
    return b.build();
  }

  private static HttpFailure serviceFailure(OpenAIServiceException e) {
    int status = e.statusCode();
    Duration retryAfter =
        HttpFailure.parseRetryAfter(
            e.headers().values("retry-after").stream().findFirst().orElse(null));
    String message = e.getMessage() == null ? "" : e.getMessage();
    message = message.replaceFirst("^\\d{3}: ", "");
    // An error event inside a stream that started well (HTTP 200) is the server's failure.
    HttpFailure.Kind kind = status < 400 ? HttpFailure.Kind.SERVER : HttpFailure.kindOf(status);
    return new HttpFailure(kind, status < 400 ? 0 : status, retryAfter, message, e);
  }

  @Override
  public void close() {
    client.close();
  }

  private static final class ToolCallParts {
    String id;
    final StringBuilder name = new StringBuilder();
    final StringBuilder arguments = new StringBuilder();
  }
}
