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
 *   <li>{@link #saveWhileLeased} writes only while the holder holds the session's lease in the
 *       {@link dev.legio.session.SessionStore} on the same database, checked in the write's
 *       transaction: a turn that lost its lease writes nothing ({@link
 *       dev.legio.session.LeaseLostException}).
 * </ol>
 */
public interface TaskSessionStore {

  Optional<TaskSessionRecord> find(String sessionKey, String agent);

  /** Inserts or replaces the record of its (key, agent). */
  void save(TaskSessionRecord record);

  /**
   * Saves {@code record} as {@link #save} does, only while {@code holder} holds the session lease
   * {@code lease} (in the session store on this database), checked in the write's transaction: a
   * task turn whose lease ran out and was taken by another node writes nothing over the record that
   * node wrote.
   *
   * @throws dev.legio.session.LeaseLostException when {@code holder} does not hold {@code lease};
   *     nothing was written
   */
  void saveWhileLeased(TaskSessionRecord record, String lease, String holder);

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
