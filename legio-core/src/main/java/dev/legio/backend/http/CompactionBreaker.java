package dev.legio.backend.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The circuit breaker of auto-compact: a summariser that keeps failing is not asked again on every
 * turn.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Each failed compaction adds one to the conversation's count of failures in a row; at {@code
 *       max_compaction_failures} the breaker opens and auto-compact is off for the session.
 *   <li>A compaction that works resets the count: the compacted conversation starts closed, with no
 *       failure ({@link Compaction#conversation}).
 *   <li>The state is kept in the {@link ConversationStore}, so a restart does not forget it; if it
 *       cannot be written, that is logged and the state still holds for this process.
 * </ul>
 */
final class CompactionBreaker {
  private static final Logger log = LoggerFactory.getLogger(CompactionBreaker.class);

  private final ConversationStore store;
  private final int maxFailures;

  /**
   * @param maxFailures failures in a row that open the breaker ({@code max_compaction_failures})
   */
  CompactionBreaker(ConversationStore store, int maxFailures) {
    this.store = store;
    this.maxFailures = maxFailures;
  }

  /** True when auto-compact is off for {@code conversation}. */
  boolean isOpen(Conversation conversation) {
    return conversation.compactionDisabled();
  }

  /**
   * Counts one more failure of compacting {@code conversation}, stores the new state and returns
   * the conversation with it.
   */
  Conversation failed(Conversation conversation) {
    int failures = conversation.compactionFailures() + 1;
    boolean disabled = failures >= maxFailures;
    try {
      store.updateCompactionState(conversation.id(), failures, disabled);
    } catch (ConversationStoreException e) {
      log.warn(
          "{}: the compaction failure could not be recorded: {}",
          conversation.owner(),
          e.getMessage());
    }
    return conversation.withCompactionState(failures, disabled);
  }
}
