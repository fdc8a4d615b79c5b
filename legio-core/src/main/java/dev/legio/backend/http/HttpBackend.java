package dev.legio.backend.http;

import com.fasterxml.uuid.Generators;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ContextUse;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.SessionTools;
import dev.legio.backend.TurnResult;
import dev.legio.backend.Usage;
import dev.legio.config.LegioConfig;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolResult;
import dev.legio.tools.Toolset;
import java.time.Clock;
import java.time.Duration;
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
 * <p>Rules of a turn ({@link BackendSession#send}):
 *
 * <ol>
 *   <li>Auto-compact ({@code [context]}): when the conversation's size (reported after the last
 *       turn, counted by the API with {@code count_tokens}, else estimated) is past {@link
 *       HttpBackendSettings#compactThreshold}, its older rounds ({@link Compaction}) are summarised
 *       by the same model in one request ({@link ContextSummary}), and a new conversation starts
 *       with the summary block and the newest {@code keep_recent_messages} verbatim; its id becomes
 *       the session's {@link BackendSession#backendSessionId()}. Events: {@link
 *       BackendEvent.CompactionStarted}, then {@link BackendEvent.CompactionEnded} or {@link
 *       BackendEvent.CompactionFailed}. A failure leaves the conversation whole and the turn goes
 *       on with it.
 *   <li>Circuit breaker: after {@code max_compaction_failures} failures in a row, auto-compact is
 *       off for the session; a compaction that works resets the count. Both are kept in the
 *       conversation store, so a restart does not forget them.
 *   <li>Every request carries at most {@code tool_result_budget} characters of tool results: the
 *       oldest are truncated first ({@link ToolResultBudget}); the store keeps them whole.
 *   <li>The request carries the conversation, the new user message and the session's tools. When
 *       the model calls tools, they run ({@link BackendEvent.ToolCall} is reported) and their
 *       results go back to the model, until it answers without calling any, at most {@code
 *       maxToolRounds} times.
 *   <li>Connection failures, time-outs, 429 and 5xx are retried as the {@link RetryPolicy} says
 *       (status lines report each retry), but never once answer text has been streamed. Anything
 *       else fails the turn with a {@link BackendException} saying what happened, with the server's
 *       own message.
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
    private Conversation conversation;
    private volatile boolean closed;

    Session(Conversation conversation, String model, Toolset tools, boolean resumed) {
      this.conversation = conversation;
      this.model = model;
      this.tools = tools;
      this.resumed = resumed;
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
      compactIfNeeded(userMessage, events);

      List<ChatMessage> turn = new ArrayList<>();
      turn.add(new ChatMessage.User(userMessage));
      List<String> texts = new ArrayList<>();
      Usage total = new Usage(0, 0, 0, 0, false);
      ChatReply reply;
      int round = 0;
      while (true) {
        reply = call(request(turn, tools.tools()), events, true);
        total = add(total, reply.usage());
        turn.add(new ChatMessage.Assistant(reply.text(), reply.toolUses()));
        if (!reply.text().isBlank()) {
          texts.add(reply.text().strip());
        }
        if (reply.toolUses().isEmpty()) {
          break;
        }
        if (++round > settings.maxToolRounds()) {
          throw new BackendException(
              displayName
                  + ": the model was still calling tools after "
                  + settings.maxToolRounds()
                  + " rounds; the turn was stopped and not stored. Ask again, more narrowly.");
        }
        for (ChatMessage.ToolUse use : reply.toolUses()) {
          events.accept(new BackendEvent.ToolCall(use.name(), use.inputJson()));
          ToolResult result = runTool(use);
          turn.add(new ChatMessage.ToolResult(use.id(), use.name(), result.text(), result.error()));
        }
      }
      long contextTokens =
          reply.usage().estimated()
              ? conversation.estimateTokens() + estimate(turn)
              : reply.contextTokens();
      ConversationTurn done =
          new ConversationTurn(
              conversation.turns().size(), turn, total, contextTokens, clock.instant());
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
          String.join("\n\n", texts),
          total,
          new ContextUse(
              Math.max(0, contextTokens),
              window(),
              conversation.compactionFailures(),
              conversation.compactionDisabled()));
    }

    /**
     * Runs one call; a toolset that breaks its promise not to throw still gives an error result.
     */
    private ToolResult runTool(ChatMessage.ToolUse use) {
      try {
        ToolResult result = tools.call(use.name(), use.inputJson());
        return result == null ? ToolResult.error("the tool returned nothing") : result;
      } catch (RuntimeException e) {
        log.warn("{}: tool {} failed", conversation.owner(), use.name(), e);
        return ToolResult.error("the tool failed: " + e.getMessage());
      }
    }

    private long window() {
      return settings.contextWindows().of(model);
    }

    /** The conversation and the new messages, tool results within the budget. */
    private ChatRequest request(List<ChatMessage> newMessages, List<ToolDefinition> offered) {
      List<ChatMessage> messages = new ArrayList<>(conversation.messages());
      messages.addAll(newMessages);
      return new ChatRequest(
          model,
          conversation.systemPrompt(),
          conversation.summary(),
          ToolResultBudget.apply(messages, settings.context().toolResultBudget()),
          offered);
    }

    /** The conversation's size with {@code userMessage}, as the API counts it when asked. */
    private long size(String userMessage) {
      long size = conversation.contextTokens() + Usage.estimateTokens(userMessage);
      if (settings.countTokens()) {
        OptionalLong exact = countTokens(userMessage);
        if (exact.isPresent()) {
          size = exact.getAsLong();
        }
      }
      return size;
    }

    /**
     * Compacts the conversation into a new one when it has grown past its threshold. A failure is
     * reported, counted by the circuit breaker, and the turn goes on with the whole conversation.
     */
    private void compactIfNeeded(String userMessage, Consumer<BackendEvent> events) {
      LegioConfig.Context context = settings.context();
      if (!context.autoCompact()
          || conversation.compactionDisabled()
          || conversation.turns().isEmpty()) {
        return;
      }
      long threshold = settings.compactThreshold(model);
      long size = size(userMessage);
      if (size <= threshold) {
        return;
      }
      Optional<Compaction> planned = Compaction.plan(conversation, context.keepRecentMessages());
      if (planned.isEmpty()) {
        log.info(
            "{}: conversation {} has {} tokens (threshold {}) but no round older than the {}"
                + " most recent messages; nothing to compact",
            conversation.owner(),
            conversation.id(),
            size,
            threshold,
            context.keepRecentMessages());
        return;
      }
      Compaction plan = planned.get();
      events.accept(new BackendEvent.CompactionStarted(plan.messagesCompacted(), size, threshold));
      Conversation previous = conversation;
      try {
        List<ChatMessage> older = ToolResultBudget.apply(plan.older(), context.toolResultBudget());
        ChatRequest ask =
            new ChatRequest(
                model,
                ContextSummary.INSTRUCTION,
                null,
                List.of(
                    new ChatMessage.User(
                        ContextSummary.request(
                            ContextSummary.text(previous.summary()), Compaction.rounds(older)))),
                List.of());
        ChatReply reply = call(ask, e -> {}, false);
        if (reply.text().isBlank()) {
          throw new BackendException(displayName + ": the summary came back empty");
        }
        String block = ContextSummary.block(reply.text());
        Conversation next =
            plan.conversation(
                Generators.timeBasedEpochGenerator().generate(), previous, block, clock.instant());
        conversations.create(next);
        conversation = next;
        long after = size(userMessage);
        log.info(
            "{}: conversation {} ({} tokens, threshold {}) compacted into {} ({} tokens): {}"
                + " messages summarised, {} kept",
            previous.owner(),
            previous.id(),
            size,
            threshold,
            next.id(),
            after,
            plan.messagesCompacted(),
            next.messages().size());
        events.accept(
            new BackendEvent.CompactionEnded(plan.messagesCompacted(), size, after, block));
      } catch (BackendException | ConversationStoreException e) {
        int failures = previous.compactionFailures() + 1;
        boolean disabled = failures >= context.maxCompactionFailures();
        conversation = previous.withCompactionState(failures, disabled);
        try {
          conversations.updateCompactionState(previous.id(), failures, disabled);
        } catch (ConversationStoreException store) {
          log.warn(
              "{}: the compaction failure could not be recorded: {}",
              previous.owner(),
              store.getMessage());
        }
        log.warn(
            "{}: compacting conversation {} failed ({} in a row{}); going on with the whole"
                + " conversation: {}",
            previous.owner(),
            previous.id(),
            failures,
            disabled ? ", auto-compact is now off for this session" : "",
            e.getMessage());
        events.accept(new BackendEvent.CompactionFailed(e.getMessage(), failures, disabled));
      }
    }

    private OptionalLong countTokens(String userMessage) {
      try {
        return client.countTokens(
            request(List.of(new ChatMessage.User(userMessage)), tools.tools()));
      } catch (HttpFailure e) {
        log.warn("{}: counting tokens failed: {}", conversation.owner(), redact(e.getMessage()));
        return OptionalLong.empty();
      }
    }

    /** One request, retried as the policy says. */
    private ChatReply call(ChatRequest request, Consumer<BackendEvent> events, boolean stream) {
      RetryPolicy retry = settings.retry();
      for (int attempt = 0; ; attempt++) {
        boolean[] streamed = {false};
        try {
          return client.send(
              request,
              piece -> {
                streamed[0] = true;
                if (stream) {
                  events.accept(new BackendEvent.Text(piece));
                }
              });
        } catch (HttpFailure failure) {
          Duration delay = streamed[0] ? null : retry.delayBefore(attempt, failure);
          if (delay == null) {
            throw failed(failure, attempt, streamed[0]);
          }
          log.info(
              "{}: {} ({}); retry {} of {} in {} ms",
              conversation.owner(),
              failure.kind().description(),
              redact(failure.getMessage()),
              attempt + 1,
              retry.maxRetries(),
              delay.toMillis());
          events.accept(
              new BackendEvent.Status(
                  "⏳ "
                      + failure.kind().description()
                      + "; retrying in "
                      + Math.max(1, (delay.toMillis() + 999) / 1000)
                      + " s"));
          try {
            retry.sleeper().sleep(delay);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(displayName + ": interrupted while waiting to retry");
          }
        }
      }
    }

    private BackendException failed(HttpFailure failure, int retries, boolean streamed) {
      StringBuilder m = new StringBuilder(displayName).append(" at ").append(client.baseUrl());
      HttpFailure.Kind kind = failure.kind();
      if (streamed && kind.retryable()) {
        // Whatever broke the stream, the answer is incomplete: it cannot be retried or kept.
        m.append(": the answer broke off while it was streaming");
        kind = HttpFailure.Kind.MALFORMED;
      } else {
        m.append(": ").append(kind.description());
      }
      if (failure.status() > 0) {
        m.append(" (HTTP ").append(failure.status()).append(')');
      }
      if (retries > 0) {
        m.append(" after ").append(retries + 1).append(" attempts");
      }
      m.append(": ").append(failure.getMessage());
      if (failure.retryAfter() != null && failure.kind().retryable()) {
        m.append(" (the server asked to wait ")
            .append(failure.retryAfter().toSeconds())
            .append(" s)");
      }
      m.append(hint(kind));
      return new BackendException(redact(m.toString()), failure);
    }

    private String hint(HttpFailure.Kind failure) {
      return switch (failure) {
        case CONNECT -> ". Is the server running? Check [backend] base_url in legio.toml.";
        case TIMEOUT ->
            ". Raise [backend] request_timeout_seconds (or connect_timeout_seconds) if the model"
                + " needs longer.";
        case AUTH -> ". Check the API key in the environment variable [backend] api_key_env names.";
        case RATE_LIMITED, SERVER -> ". Try again later.";
        case REQUEST -> ". Check [backend] model and the agent's front matter.";
        case MALFORMED -> ". The turn was not stored; send the message again.";
      };
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private String redact(String text) {
    return Secrets.redact(text, secret);
  }

  private static Usage add(Usage a, Usage b) {
    return new Usage(
        a.inputTokens() + b.inputTokens(),
        a.outputTokens() + b.outputTokens(),
        a.cacheReadTokens() + b.cacheReadTokens(),
        a.cacheCreationTokens() + b.cacheCreationTokens(),
        a.estimated() || b.estimated());
  }

  private static long estimate(List<ChatMessage> messages) {
    long chars = 0;
    for (ChatMessage m : messages) {
      chars += m.text().length() + 16;
    }
    return (chars + 3) / 4;
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
        once.call(once.request(List.of(new ChatMessage.User(prompt)), List.of()), e -> {}, false);
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
