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
 *   <li>A conversation is created empty ({@link #create}) and grows one whole turn at a time
 *       ({@link #appendTurn}): a turn is written atomically, with all its messages, or not at all.
 *       A turn that failed is never appended, so the stored conversation is always one a model
 *       could have produced.
 *   <li>{@link #appendTurn} takes the turn's index: it must be the number of turns already stored.
 *       If another writer appended first, the append fails and changes nothing.
 *   <li>{@link #find} returns the conversation exactly as stored: the same system prompt, summary
 *       and messages, in order.
 * </ul>
 */
public interface ConversationStore {

  /** Stores a new, empty conversation. */
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
   * Deletes the conversations with no activity (creation or turn) at or after {@code cutoff}, with
   * their turns. Returns how many conversations were deleted.
   */
  int deleteInactiveBefore(Instant cutoff);
}
