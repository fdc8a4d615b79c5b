package dev.legio.backend.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.Timeout;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicException;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.models.messages.CacheControlEphemeral;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.MessageParam;
import com.anthropic.models.messages.RawContentBlockDelta;
import com.anthropic.models.messages.RawContentBlockStartEvent;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.TextBlockParam;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlockParam;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * Anthropic's Messages API through the official Anthropic Java SDK: streamed, with the tool-use
 * loop's blocks ({@code tool_use}, {@code tool_result}), usage including cache reads and writes,
 * and prompt caching of the stable prefix. The SDK's own retries are off: {@link
 * dev.legio.backend.http.HttpBackend} retries.
 *
 * <p>Prompt caching: the request carries {@code cache_control: {"type": "ephemeral"}} on the last
 * system block (so tools, system prompt and summary are cached together), on the last block of the
 * stored conversation (the older turns), and on the last block of the request (so that the next
 * request of the tool loop, or the next turn, reads everything before it from the cache). That is
 * three of the four breakpoints the API allows.
 *
 * <p>Mapping: consecutive tool results go into one {@code user} message, as the API requires.
 */
public final class AnthropicChat implements ChatClient {
  public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  private static final CacheControlEphemeral CACHE = CacheControlEphemeral.builder().build();

  private final AnthropicClient client;
  private final String baseUrl;
  private final long maxOutputTokens;

  public AnthropicChat(
      String baseUrl,
      String apiKey,
      Duration connectTimeout,
      Duration requestTimeout,
      long maxOutputTokens) {
    this.baseUrl = baseUrl;
    this.maxOutputTokens = maxOutputTokens;
    this.client =
        AnthropicOkHttpClient.builder()
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
    MessageCreateParams params = params(request, maxOutputTokens);
    StringBuilder answer = new StringBuilder();
    List<ChatMessage.ToolUse> uses = new ArrayList<>();
    StringBuilder toolInput = null;
    String toolId = null;
    String toolName = null;
    long input = 0;
    long output = 0;
    long cacheRead = 0;
    long cacheCreation = 0;
    boolean stopped = false;
    try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(params)) {
      Iterator<RawMessageStreamEvent> events = stream.stream().iterator();
      while (events.hasNext()) {
        RawMessageStreamEvent event = events.next();
        if (event.isMessageStart()) {
          com.anthropic.models.messages.Usage u = event.asMessageStart().message().usage();
          input = u.inputTokens();
          output = u.outputTokens();
          cacheRead = u.cacheReadInputTokens().orElse(0L);
          cacheCreation = u.cacheCreationInputTokens().orElse(0L);
        } else if (event.isContentBlockStart()) {
          RawContentBlockStartEvent.ContentBlock block = event.asContentBlockStart().contentBlock();
          if (block.isToolUse()) {
            toolId = block.asToolUse().id();
            toolName = block.asToolUse().name();
            toolInput = new StringBuilder();
          } else if (block.isText() && !block.asText().text().isEmpty()) {
            answer.append(block.asText().text());
            text.accept(block.asText().text());
          }
        } else if (event.isContentBlockDelta()) {
          RawContentBlockDelta delta = event.asContentBlockDelta().delta();
          if (delta.isText()) {
            String piece = delta.asText().text();
            answer.append(piece);
            text.accept(piece);
          } else if (delta.isInputJson() && toolInput != null) {
            toolInput.append(delta.asInputJson().partialJson());
          }
        } else if (event.isContentBlockStop()) {
          if (toolInput != null) {
            uses.add(new ChatMessage.ToolUse(toolId, toolName, toolInput.toString()));
            toolInput = null;
          }
        } else if (event.isMessageDelta()) {
          var u = event.asMessageDelta().usage();
          output = u.outputTokens();
          input = u.inputTokens().orElse(input);
          cacheRead = u.cacheReadInputTokens().orElse(cacheRead);
          cacheCreation = u.cacheCreationInputTokens().orElse(cacheCreation);
        } else if (event.isMessageStop()) {
          stopped = true;
        }
      }
    } catch (AnthropicServiceException e) {
      throw serviceFailure(e);
    } catch (AnthropicException | java.io.UncheckedIOException e) {
      throw HttpFailure.fromProblem(e);
    }
    if (!stopped) {
      throw HttpFailure.of(
          HttpFailure.Kind.MALFORMED,
          "the stream ended before the answer was complete (no message_stop)");
    }
    return new ChatReply(
        answer.toString(), uses, new Usage(input, output, cacheRead, cacheCreation, false));
  }

  @Override
  public OptionalLong countTokens(ChatRequest request) {
    MessageCreateParams create = params(request, maxOutputTokens);
    MessageCountTokensParams.Builder count =
        MessageCountTokensParams.builder().model(request.model()).messages(create.messages());
    count.systemOfTextBlockParams(system(request));
    for (ToolDefinition tool : request.tools()) {
      count.addTool(tool(tool, false));
    }
    try {
      return OptionalLong.of(client.messages().countTokens(count.build()).inputTokens());
    } catch (AnthropicServiceException e) {
      throw serviceFailure(e);
    } catch (AnthropicException | java.io.UncheckedIOException e) {
      throw HttpFailure.fromProblem(e);
    }
  }

  /** The request in the SDK's form, with the cache markers. */
  static MessageCreateParams params(ChatRequest request, long maxOutputTokens) {
    MessageCreateParams.Builder b =
        MessageCreateParams.builder().model(request.model()).maxTokens(maxOutputTokens);
    b.systemOfTextBlockParams(system(request));

    List<ChatMessage> messages = request.messages();
    // The stored conversation ends before the last user message that is not a tool result.
    int stored = -1;
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof ChatMessage.User) {
        stored = i - 1;
        break;
      }
    }
    List<MessageParam> params = new ArrayList<>();
    List<ContentBlockParam> pending = new ArrayList<>();
    MessageParam.Role pendingRole = null;
    for (int i = 0; i < messages.size(); i++) {
      ChatMessage m = messages.get(i);
      MessageParam.Role role =
          m instanceof ChatMessage.Assistant ? MessageParam.Role.ASSISTANT : MessageParam.Role.USER;
      if (pendingRole != null && (role != pendingRole || m instanceof ChatMessage.User)) {
        params.add(message(pendingRole, pending));
        pending = new ArrayList<>();
      }
      pendingRole = role;
      boolean cached = i == stored || i == messages.size() - 1;
      List<ContentBlockParam> blocks = blocks(m);
      if (cached && !blocks.isEmpty()) {
        blocks.set(blocks.size() - 1, withCache(blocks.get(blocks.size() - 1)));
      }
      pending.addAll(blocks);
    }
    if (pendingRole != null) {
      params.add(message(pendingRole, pending));
    }
    b.messages(params);
    for (ToolDefinition tool : request.tools()) {
      b.addTool(tool(tool, false));
    }
    return b.build();
  }

  /** The system prompt and the summary, the last block marked for caching. */
  private static List<TextBlockParam> system(ChatRequest request) {
    List<TextBlockParam> system = new ArrayList<>();
    system.add(TextBlockParam.builder().text(request.systemPrompt()).build());
    if (request.summaryBlock() != null) {
      system.add(TextBlockParam.builder().text(request.summaryBlock()).build());
    }
    int last = system.size() - 1;
    system.set(last, system.get(last).toBuilder().cacheControl(CACHE).build());
    return system;
  }

  private static MessageParam message(MessageParam.Role role, List<ContentBlockParam> blocks) {
    return role == MessageParam.Role.ASSISTANT
        ? MessageParam.ofAssistantOfContentBlockParams(List.copyOf(blocks))
        : MessageParam.ofUserOfContentBlockParams(List.copyOf(blocks));
  }

  private static List<ContentBlockParam> blocks(ChatMessage message) {
    List<ContentBlockParam> blocks = new ArrayList<>();
    switch (message) {
      case ChatMessage.User u ->
          blocks.add(ContentBlockParam.ofText(TextBlockParam.builder().text(u.text()).build()));
      case ChatMessage.Assistant a -> {
        if (!a.text().isEmpty()) {
          blocks.add(ContentBlockParam.ofText(TextBlockParam.builder().text(a.text()).build()));
        }
        for (ChatMessage.ToolUse use : a.toolUses()) {
          ToolUseBlockParam.Input.Builder input = ToolUseBlockParam.Input.builder();
          object(use.inputJson())
              .forEach((k, v) -> input.putAdditionalProperty(k, JsonValue.from(v)));
          blocks.add(
              ContentBlockParam.ofToolUse(
                  ToolUseBlockParam.builder()
                      .id(use.id())
                      .name(use.name())
                      .input(input.build())
                      .build()));
        }
      }
      case ChatMessage.ToolResult r ->
          blocks.add(
              ContentBlockParam.ofToolResult(
                  ToolResultBlockParam.builder()
                      .toolUseId(r.toolUseId())
                      .content(r.text())
                      .isError(r.error())
                      .build()));
    }
    return blocks;
  }

  private static ContentBlockParam withCache(ContentBlockParam block) {
    if (block.isText()) {
      return ContentBlockParam.ofText(block.asText().toBuilder().cacheControl(CACHE).build());
    }
    if (block.isToolUse()) {
      return ContentBlockParam.ofToolUse(block.asToolUse().toBuilder().cacheControl(CACHE).build());
    }
    if (block.isToolResult()) {
      return ContentBlockParam.ofToolResult(
          block.asToolResult().toBuilder().cacheControl(CACHE).build());
    }
    return block;
  }

  private static Tool tool(ToolDefinition definition, boolean cached) {
    Map<String, Object> schema = definition.inputSchemaMap();
    Tool.InputSchema.Builder input = Tool.InputSchema.builder();
    schema.forEach(
        (k, v) -> {
          if (!k.equals("type")) {
            input.putAdditionalProperty(k, JsonValue.from(v));
          }
        });
    Tool.Builder tool =
        Tool.builder()
            .name(definition.name())
            .description(definition.description())
            .inputSchema(input.build());
    if (cached) {
      tool.cacheControl(CACHE);
    }
    return tool.build();
  }

  private static Map<String, Object> object(String json) {
    try {
      Map<String, Object> map = JSON.readValue(json, OBJECT);
      return map == null ? Map.of() : map;
    } catch (JsonProcessingException e) {
      return Map.of();
    }
  }

  private static HttpFailure serviceFailure(AnthropicServiceException e) {
    int status = e.statusCode();
    Duration retryAfter =
        HttpFailure.parseRetryAfter(
            e.headers().values("retry-after").stream().findFirst().orElse(null));
    String message =
        e.apiMessage()
            .orElseGet(
                () -> e.getMessage() == null ? "" : e.getMessage().replaceFirst("^\\d{3}: ", ""));
    // An error event in a stream that started well (HTTP 200) is the server's failure;
    // 529 "overloaded" is a server error too.
    HttpFailure.Kind kind = status < 400 ? HttpFailure.Kind.SERVER : HttpFailure.kindOf(status);
    return new HttpFailure(kind, status < 400 ? 0 : status, retryAfter, message, e);
  }

  @Override
  public void close() {
    client.close();
  }
}
