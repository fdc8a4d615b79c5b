package dev.legio.backend.http;

import dev.legio.backend.Usage;
import java.util.List;
import java.util.Objects;

/**
 * The model's complete answer to one {@link ChatRequest}.
 *
 * @param text the answer's text (may be empty when the model only called tools)
 * @param toolUses the tools the model called, in order; empty for a final answer
 * @param usage the tokens the request cost, as the API reported them ({@link Usage#estimated()}
 *     when it reported none and Legio estimated them)
 */
public record ChatReply(String text, List<ChatMessage.ToolUse> toolUses, Usage usage) {
  public ChatReply {
    text = text == null ? "" : text;
    toolUses = List.copyOf(toolUses);
    Objects.requireNonNull(usage, "usage");
  }

  /** The size of the conversation after this answer: what the model read and what it wrote. */
  public long contextTokens() {
    return usage.inputTokens()
        + usage.cacheReadTokens()
        + usage.cacheCreationTokens()
        + usage.outputTokens();
  }
}
