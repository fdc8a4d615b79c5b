package dev.legio.backend.http;

import com.fasterxml.uuid.Generators;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ContextUse;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.SessionTools;
import dev.legio.backend.TokenEstimator;
import dev.legio.backend.TurnResult;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolResult;
import dev.legio.tools.Toolset;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A back-end over a chat API that keeps no conversation itself (Anthropic's Messages API,
 * OpenAI-compatible servers, Ollama): Legio is the session. The conversation (system prompt, an
 * optional summary, and every turn with its tool calls and results) is kept in a {@link
 * ConversationStore} and sent with each request, so after a restart the very same conversation is
 * sent again. The vendor's wire protocol is a {@link ChatClient}.
 *
 * <p>Rules of a turn ({@link BackendSession#send}), each kept by its own part:
 *
 * <ol>
 *   <li>Auto-compact and its circuit breaker ({@link AutoCompactor}, {@link CompactionBreaker}):
 *       past the threshold the older rounds are summarised into a new conversation, whose id
 *       becomes the session's {@link BackendSession#backendSessionId()}; a failure leaves the
 *       conversation whole and the turn goes on with it.
 *   <li>Every request carries at most {@code tool_result_budget} characters of tool results: the
 *       oldest are truncated first ({@link ToolResultBudget}); the store keeps them whole.
 *   <li>The tool loop ({@link ToolLoop}): the request carries the conversation, the new user
 *       message and the session's tools; tools the model calls run and their results go back, at
 *       most {@code maxToolRounds} times.
 *   <li>Retries ({@link RetryingChatClient}): connection failures, time-outs, 429 and 5xx are
 *       retried as the {@link RetryPolicy} says, never once answer text has been streamed; anything
 *       else fails the turn with a {@link BackendException} saying what happened ({@link
 *       HttpFailure#describe}).
 *   <li>Only a completed turn is stored, whole; a failed turn leaves the stored conversation as it
 *       was, so the next turn (or a restart) sends exactly what was sent before.
 *   <li>The {@link TurnResult} carries the usage summed over the turn's requests and the {@link
 *       ContextUse} after it: the conversation's size, the model's window and the breaker's state.
 * </ol>
 *
 * <p>The API key is never written to logs or errors.
 */
public final class HttpBackend implements ModelBackend {
  private static final Logger log = LoggerFactory.getLogger(HttpBackend.class);

  private final String kind;
  private final String displayName;
  private final ChatClient client;
  private final ConversationStore conversations;
  private final SessionTools tools;
  private final HttpBackendSettings settings;
  private final Clock clock;
  private final String secret;
  private final AutoCompactor compactor;
  private final ToolLoop toolLoop;

  /**
   * @param kind the configuration name ({@code anthropic}, {@code openai}, {@code ollama})
   * @param displayName how replies name the back-end
   * @param secret the API key, masked wherever a message could show it; null if none
   */
  public HttpBackend(
      String kind,
      String displayName,
      ChatClient client,
      ConversationStore conversations,
      SessionTools tools,
      HttpBackendSettings settings,
      Clock clock,
      String secret) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.displayName = Objects.requireNonNull(displayName, "displayName");
    this.client = Objects.requireNonNull(client, "client");
    this.conversations = Objects.requireNonNull(conversations, "conversations");
    this.tools = Objects.requireNonNull(tools, "tools");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.secret = secret;
    this.compactor = new AutoCompactor(conversations, settings, clock, displayName);
    this.toolLoop = new ToolLoop(displayName, settings.maxToolRounds());
  }

  @Override
  public String kind() {
    return kind;
  }

  @Override
  public String displayName() {
    return displayName;
  }

  /** True: the conversation is in Legio's store; its id resumes it. */
  @Override
  public boolean canResume() {
    return true;
  }

  public HttpBackendSettings settings() {
    return settings;
  }

  @Override
  public BackendSession open(SessionSpec spec) {
    String model = spec.model() == null || spec.model().isBlank() ? settings.model() : spec.model();
    Toolset sessionTools = tools.forSession(spec);
    if (spec.resumeId() != null) {
      Optional<Conversation> found = find(spec.resumeId());
      if (found.isPresent() && found.get().backend().equals(kind)) {
        return new Session(found.get(), model, sessionTools, true);
      }
      log.info(
          "{}: conversation {} is not in the store; starting a new one",
          spec.owner(),
          spec.resumeId());
    }
    Conversation fresh = newConversation(spec.owner(), model, spec.systemPrompt(), null, null);
    return new Session(fresh, model, sessionTools, false);
  }

  private Optional<Conversation> find(String id) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return conversations.find(uuid);
  }

  private Conversation newConversation(
      String owner, String model, String systemPrompt, String summary, UUID previousId) {
    Conversation c =
        new Conversation(
            Generators.timeBasedEpochGenerator().generate(),
            owner,
            kind,
            model,
            systemPrompt,
            summary,
            previousId,
            clock.instant(),
            List.of());
    conversations.create(c);
    return c;
  }

  @Override
  public void close() {
    client.close();
  }

  private final class Session implements BackendSession {
    private final String model;
    private final Toolset tools;
    private final boolean resumed;
    private final RetryingChatClient client;
    private Conversation conversation;
    private volatile boolean closed;

    Session(Conversation conversation, String model, Toolset tools, boolean resumed) {
      this.conversation = conversation;
      this.model = model;
      this.tools = tools;
      this.resumed = resumed;
      this.client =
          new RetryingChatClient(
              HttpBackend.this.client, settings.retry(), displayName, conversation.owner(), secret);
    }

    @Override
    public String backendSessionId() {
      return conversation.id().toString();
    }

    @Override
    public boolean resumed() {
      return resumed;
    }

    @Override
    public synchronized TurnResult send(String userMessage, Consumer<BackendEvent> events) {
      if (closed) {
        throw new BackendException("the " + displayName + " session was closed");
      }
      events.accept(new BackendEvent.Status("⏳ Thinking..."));
      conversation =
          compactor.compactIfNeeded(conversation, model, client, c -> size(c, userMessage), events);
      ToolLoop.Outcome outcome =
          toolLoop.run(
              userMessage,
              turn -> request(conversation, turn, tools.tools()),
              client,
              tools,
              events,
              conversation.owner());
      long contextTokens = outcome.contextTokens(conversation);
      ConversationTurn done =
          new ConversationTurn(
              conversation.turns().size(),
              outcome.messages(),
              outcome.usage(),
              contextTokens,
              clock.instant());
      try {
        conversations.appendTurn(conversation.id(), done);
      } catch (ConversationStoreException e) {
        throw new BackendException(
            displayName
                + ": the answer could not be stored, so the turn does not count: "
                + e.getMessage(),
            e);
      }
      conversation = conversation.with(done);
      return new TurnResult(
          outcome.text(),
          outcome.usage(),
          new ContextUse(
              Math.max(0, contextTokens),
              settings.contextWindows().of(model),
              conversation.compactionFailures(),
              conversation.compactionDisabled()));
    }

    /** The size of {@code c} with {@code userMessage}, as the API counts it when asked. */
    private long size(Conversation c, String userMessage) {
      long size = c.contextTokens() + TokenEstimator.of(userMessage);
      if (settings.countTokens()) {
        OptionalLong exact =
            client.countTokens(
                request(c, List.of(new ChatMessage.User(userMessage)), tools.tools()));
        if (exact.isPresent()) {
          size = exact.getAsLong();
        }
      }
      return size;
    }

    /** The request {@code c} and {@code newMessages} make, with {@code offered} tools. */
    private ChatRequest request(
        Conversation c, List<ChatMessage> newMessages, List<ToolDefinition> offered) {
      List<ChatMessage> messages = new ArrayList<>(c.messages());
      messages.addAll(newMessages);
      return new ChatRequest(
          model,
          c.systemPrompt(),
          c.summary(),
          ToolResultBudget.apply(messages, settings.context().toolResultBudget()),
          offered);
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  // ------------------------------------------------------------------ one question, no session

  /** True: one request answers one question. */
  @Override
  public boolean canComplete() {
    return true;
  }

  /**
   * One request with the system prompt and the question, no tools offered, retried as {@link
   * RetryPolicy} says; nothing is stored.
   *
   * @throws BackendException when the request failed or the answer has no text
   */
  @Override
  public String complete(String systemPrompt, String prompt, String model) {
    String chosen = model == null || model.isBlank() ? settings.model() : model;
    Conversation scratch =
        new Conversation(
            Generators.timeBasedEpochGenerator().generate(),
            COMPLETE_OWNER,
            kind,
            chosen,
            systemPrompt,
            null,
            null,
            clock.instant(),
            List.of());
    Session once = new Session(scratch, chosen, NO_TOOLS, false);
    ChatReply reply =
        once.client.send(
            once.request(scratch, List.of(new ChatMessage.User(prompt)), List.of()), piece -> {});
    if (reply.text().isBlank()) {
      throw new BackendException(displayName + ": the model's answer had no text");
    }
    return reply.text();
  }

  /** How a {@link #complete} request is named in the logs. */
  private static final String COMPLETE_OWNER = "(complete)";

  private static final Toolset NO_TOOLS =
      new Toolset() {
        @Override
        public List<ToolDefinition> tools() {
          return List.of();
        }

        @Override
        public ToolResult call(String name, String inputJson) {
          return ToolResult.error("no tools are offered here");
        }
      };
}
