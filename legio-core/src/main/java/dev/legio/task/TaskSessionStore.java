package dev.legio.task;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where the records of task sessions are kept: the same database as the session store (SQLite or
 * PostgreSQL), so every Legio process sharing it resumes the same sessions.
 *
 * <p>Rules every implementation keeps (TaskSessionStoreContract checks them on both databases):
 *
 * <ol>
 *   <li>One record per (session key, agent); {@link #save} replaces it whole, {@link #find} returns
 *       exactly what was last saved (timestamps to the microsecond).
 *   <li>Keys are compared exactly: {@code a:b} and {@code a:b } are two keys.
 *   <li>{@link #deleteExpired} deletes exactly the records whose expiry is at or before {@code
 *       now}, and returns them (their conversations may have to go with them).
 * </ol>
 */
public interface TaskSessionStore {

  Optional<TaskSessionRecord> find(String sessionKey, String agent);

  /** Inserts or replaces the record of its (key, agent). */
  void save(TaskSessionRecord record);

  /** The records of {@code sessionKey}, by agent. */
  List<TaskSessionRecord> forKey(String sessionKey);

  /** Deletes the records expired at {@code now}; returns what it deleted. */
  List<TaskSessionRecord> deleteExpired(Instant now);

  /**
   * Where the back-end conversation of the (key, agent) session is, while it has not expired at
   * {@code now}. Empty when there is no such session or the store does not record nodes.
   */
  default java.util.Optional<dev.legio.session.ConversationHome> conversationHome(
      String sessionKey, String agent, Instant now) {
    return java.util.Optional.empty();
  }
}
