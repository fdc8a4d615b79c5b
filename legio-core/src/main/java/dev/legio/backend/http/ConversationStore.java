package dev.legio.backend.http;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Where Legio keeps the conversations of back-ends that keep none themselves.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A conversation is created ({@link #create}) empty, or, when a compaction starts it, with
 *       the turns it kept: header and turns in one transaction, all or nothing. It grows one whole
 *       turn at a time ({@link #appendTurn}): a turn is written atomically, with all its messages,
 *       or not at all. A turn that failed is never appended, so the stored conversation is always
 *       one a model could have produced.
 *   <li>{@link #appendTurn} takes the turn's index: it must be the number of turns already stored.
 *       If another writer appended first, the append fails and changes nothing.
 *   <li>{@link #find} returns the conversation exactly as stored: the same system prompt, summary
 *       and messages, in order, and the same compaction state.
 *   <li>The compaction state (consecutive failures, auto-compact off) changes only through {@link
 *       #updateCompactionState}; it survives restarts.
 * </ul>
 */
public interface ConversationStore {

  /**
   * Stores a new conversation with its turns (none, or those a compaction kept), its summary and
   * its compaction state, in one transaction.
   *
   * @throws ConversationStoreException when the database fails or the id is taken; nothing is
   *     written then
   */
  void create(Conversation conversation);

  /** The conversation with that id, with all its turns; empty if there is none. */
  Optional<Conversation> find(UUID id);

  /**
   * Appends one completed turn.
   *
   * @throws ConversationStoreException when the conversation does not exist, the index is not the
   *     next one, or the database fails; nothing is written then
   */
  void appendTurn(UUID conversationId, ConversationTurn turn);

  /**
   * Records a conversation's circuit-breaker state: how many compactions in a row failed, and
   * whether auto-compact is now off for it.
   *
   * @throws ConversationStoreException when the conversation does not exist or the database fails
   */
  void updateCompactionState(UUID conversationId, int consecutiveFailures, boolean disabled);

  /**
   * Deletes the conversations with no activity (creation or turn) at or after {@code cutoff}, with
   * their turns. Returns how many conversations were deleted.
   */
  int deleteInactiveBefore(Instant cutoff);

  /**
   * Deletes the conversation {@code id} with its turns (an expired task session's, say); false when
   * there was none.
   */
  boolean delete(UUID id);
}
