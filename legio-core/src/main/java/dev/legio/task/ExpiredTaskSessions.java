package dev.legio.task;

import dev.legio.backend.http.Conversation;
import dev.legio.backend.http.ConversationStore;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daily cleanup of task sessions ({@link TaskSessions#deleteExpired}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A record whose time to live ran out is deleted from the store; what this process holds of
 *       it (its live back-end session) is closed unless a turn holds its slot now, and the slot is
 *       retired when unused.
 *   <li>The conversations Legio stored for it (HTTP back-ends) are deleted with it: the one it
 *       named and those that one continues (after compactions), at most 1,000 back. A conversation
 *       that cannot be deleted is logged and left; the cleanup goes on.
 * </ul>
 */
final class ExpiredTaskSessions {
  private static final Logger log = LoggerFactory.getLogger(ExpiredTaskSessions.class);

  private final TaskSessionStore records;
  private final TaskSlots slots;
  private final ConversationStore conversations;
  private final Clock clock;

  ExpiredTaskSessions(
      TaskSessionStore records, TaskSlots slots, ConversationStore conversations, Clock clock) {
    this.records = records;
    this.slots = slots;
    this.conversations = conversations;
    this.clock = clock;
  }

  /** Deletes the expired task sessions and their conversations; returns how many sessions. */
  int delete() {
    List<TaskSessionRecord> expired = records.deleteExpired(clock.instant());
    for (TaskSessionRecord r : expired) {
      TaskSlot slot = slots.get(r.sessionKey(), r.agent());
      if (slot != null && slot.lock.tryLock()) {
        try {
          if (slot.record != null && slot.record.sessionId().equals(r.sessionId())) {
            TaskSessionOpener.closeLive(slot);
            slot.record = null;
          }
          slots.retireIfUnused(r.sessionKey(), r.agent(), slot);
        } finally {
          slot.lock.unlock();
        }
      }
      conversationOf(r).ifPresent(this::deleteConversation);
    }
    log.info("deleted {} expired task sessions", expired.size());
    return expired.size();
  }

  private static Optional<UUID> conversationOf(TaskSessionRecord r) {
    if (r.backendSessionId() == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(UUID.fromString(r.backendSessionId()));
    } catch (IllegalArgumentException notAConversation) {
      return Optional.empty();
    }
  }

  /** Deletes the conversation {@code id} and those it continues (after compactions). */
  private void deleteConversation(UUID id) {
    UUID next = id;
    for (int hops = 0; next != null && hops < 1_000; hops++) {
      try {
        UUID previous = conversations.find(next).map(Conversation::previousId).orElse(null);
        conversations.delete(next);
        next = previous;
      } catch (RuntimeException e) {
        log.warn("the conversation {} of an expired task session could not be deleted", next, e);
        return;
      }
    }
  }
}
