package dev.legio.backend.http;

import com.fasterxml.uuid.Generators;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Auto-compact ({@code [context]}): keeps a conversation within its model's window by summarising
 * its older rounds before a turn.
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>Nothing happens when auto-compact is off, when its {@link CompactionBreaker} is open, or
 *       when the conversation has no turn yet.
 *   <li>The conversation is compacted when its size with the new user message (reported after the
 *       last turn, counted by the API with {@code count_tokens}, else estimated) is past {@link
 *       HttpBackendSettings#compactThreshold}.
 *   <li>Its older rounds ({@link Compaction}, keeping the newest {@code keep_recent_messages}) are
 *       summarised by the same model in one request without tools, tool results within the budget
 *       ({@link ContextSummary}); a new conversation starts with the summary block and the kept
 *       turns, and is stored. With no round old enough, nothing is compacted.
 *   <li>Events: {@link BackendEvent.CompactionStarted}, then {@link BackendEvent.CompactionEnded}
 *       or {@link BackendEvent.CompactionFailed}.
 *   <li>A compaction must make room: a summary so long that the compacted conversation would not
 *       fit the model's window is refused (a model that writes at length on a small window), since
 *       the model could not take it and every later turn would compact again.
 *   <li>A failure (the request failed, the summary came back empty or too long, the store refused)
 *       leaves the conversation whole, is counted by the {@link CompactionBreaker}, and the turn
 *       goes on. Its log line says what failed, not what a failed turn would say.
 * </ol>
 */
final class AutoCompactor {
  private static final Logger log = LoggerFactory.getLogger(AutoCompactor.class);

  private final ConversationStore conversations;
  private final HttpBackendSettings settings;
  private final CompactionBreaker breaker;
  private final Clock clock;
  private final String displayName;

  AutoCompactor(
      ConversationStore conversations,
      HttpBackendSettings settings,
      Clock clock,
      String displayName) {
    this.conversations = Objects.requireNonNull(conversations, "conversations");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.breaker = new CompactionBreaker(conversations, settings.context().maxCompactionFailures());
    this.clock = Objects.requireNonNull(clock, "clock");
    this.displayName = Objects.requireNonNull(displayName, "displayName");
  }

  /**
   * The conversation the turn goes on with: {@code conversation} itself, a compacted one, or {@code
   * conversation} with one more failure counted.
   *
   * @param size the size in tokens of a conversation with the turn's new user message
   * @param client sends the summary request (with {@code model})
   */
  Conversation compactIfNeeded(
      Conversation conversation,
      String model,
      RetryingChatClient client,
      ToLongFunction<Conversation> size,
      Consumer<BackendEvent> events) {
    if (!settings.context().autoCompact()
        || breaker.isOpen(conversation)
        || conversation.turns().isEmpty()) {
      return conversation;
    }
    long threshold = settings.compactThreshold(model);
    long before = size.applyAsLong(conversation);
    if (before <= threshold) {
      return conversation;
    }
    int keepRecent = settings.context().keepRecentMessages();
    Optional<Compaction> planned = Compaction.plan(conversation, keepRecent);
    if (planned.isEmpty()) {
      log.info(
          "{}: conversation {} has {} tokens (threshold {}) but no round older than the {}"
              + " most recent messages; nothing to compact",
          conversation.owner(),
          conversation.id(),
          before,
          threshold,
          keepRecent);
      return conversation;
    }
    Compaction plan = planned.get();
    events.accept(new BackendEvent.CompactionStarted(plan.messagesCompacted(), before, threshold));
    try {
      String block = summarise(conversation, plan, model, client);
      Conversation next =
          plan.conversation(
              Generators.timeBasedEpochGenerator().generate(),
              conversation,
              block,
              clock.instant());
      long after = size.applyAsLong(next);
      long window = settings.contextWindows().of(model);
      if (after > window) {
        throw new BackendException(
            displayName
                + ": the summary came back too long: the compacted conversation would be "
                + after
                + " tokens, more than the model's window of "
                + window);
      }
      conversations.create(next);
      log.info(
          "{}: conversation {} ({} tokens, threshold {}) compacted into {} ({} tokens): {}"
              + " messages summarised, {} kept",
          conversation.owner(),
          conversation.id(),
          before,
          threshold,
          next.id(),
          after,
          plan.messagesCompacted(),
          next.messages().size());
      events.accept(
          new BackendEvent.CompactionEnded(plan.messagesCompacted(), before, after, block));
      return next;
    } catch (BackendException | ConversationStoreException e) {
      Conversation counted = breaker.failed(conversation);
      log.warn(
          "{}: compacting conversation {} failed ({} in a row{}); going on with the whole"
              + " conversation: {}",
          conversation.owner(),
          conversation.id(),
          counted.compactionFailures(),
          counted.compactionDisabled() ? ", auto-compact is now off for this session" : "",
          HttpFailure.withoutTurnAdvice(e.getMessage()));
      events.accept(
          new BackendEvent.CompactionFailed(
              HttpFailure.withoutTurnAdvice(e.getMessage()),
              counted.compactionFailures(),
              counted.compactionDisabled()));
      return counted;
    }
  }

  /** The summary block of {@code plan}'s older rounds, asked of the model in one request. */
  private String summarise(
      Conversation previous, Compaction plan, String model, RetryingChatClient client) {
    List<ChatMessage> older =
        ToolResultBudget.apply(plan.older(), settings.context().toolResultBudget());
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
    ChatReply reply = client.send(ask, piece -> {});
    if (reply.text().isBlank()) {
      throw new BackendException(displayName + ": the summary came back empty");
    }
    return ContextSummary.block(reply.text());
  }
}
