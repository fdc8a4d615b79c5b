package dev.legio.backend.http;

import dev.legio.backend.Usage;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One completed turn of a conversation: the user message, then every message of the tool-use loop
 * (the model's tool calls and the results), then the model's answer. A turn is stored whole or not
 * at all.
 *
 * @param index the turn's position in its conversation, from 0
 * @param usage the tokens the turn cost, over all its requests
 * @param contextTokens the size of the conversation after this turn (what the model read and wrote
 *     in the turn's last request), reported by the back-end or estimated; it decides when the
 *     conversation is summarised
 */
public record ConversationTurn(
    int index, List<ChatMessage> messages, Usage usage, long contextTokens, Instant createdAt) {
  public ConversationTurn {
    if (index < 0) {
      throw new IllegalArgumentException("a turn's index starts at 0, not " + index);
    }
    messages = List.copyOf(messages);
    if (messages.isEmpty() || !(messages.get(0) instanceof ChatMessage.User)) {
      throw new IllegalArgumentException("a turn starts with the user's message");
    }
    Objects.requireNonNull(usage, "usage");
    Objects.requireNonNull(createdAt, "createdAt");
  }
}
