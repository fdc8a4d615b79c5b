package dev.legio.backend.http;

import dev.legio.tools.ToolDefinition;
import java.util.List;
import java.util.Objects;

/**
 * One request to a chat API, in Legio's form: a {@link ChatClient} turns it into its wire format.
 *
 * @param summary the summary of the earlier part of the conversation (a {@link ContextSummary}
 *     block), sent after the system prompt; null if none
 * @param messages the conversation so far and the new messages, in order
 * @param tools the tools the model may call (none: the request offers no tools)
 */
public record ChatRequest(
    String model,
    String systemPrompt,
    String summary,
    List<ChatMessage> messages,
    List<ToolDefinition> tools) {

  /** How a summary is shown to the model. */
  public static final String SUMMARY_INTRODUCTION =
      "The earlier part of this conversation was condensed into this summary:";

  public ChatRequest {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(systemPrompt, "systemPrompt");
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
  }

  /**
   * The summary as the model sees it (a system message after the system prompt): the introduction
   * and the {@code <context_summary>} block; a summary that is not a block yet is escaped into one.
   * Null when there is none.
   */
  public String summaryBlock() {
    return summary == null ? null : SUMMARY_INTRODUCTION + "\n" + ContextSummary.asBlock(summary);
  }
}
