package dev.legio.backend.http;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Objects;

/**
 * One message of a stored conversation, in Legio's own form (each back-end turns it into its wire
 * format). Stored as JSON with a {@code role} field: {@code user}, {@code assistant} or {@code
 * tool}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "role")
@JsonSubTypes({
  @JsonSubTypes.Type(value = ChatMessage.User.class, name = "user"),
  @JsonSubTypes.Type(value = ChatMessage.Assistant.class, name = "assistant"),
  @JsonSubTypes.Type(value = ChatMessage.ToolResult.class, name = "tool")
})
public sealed interface ChatMessage {

  /** The text of the message (for a tool result: the result), used for token estimates. */
  String text();

  /** What Legio sent the model. */
  record User(String text) implements ChatMessage {
    public User {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * What the model answered: text, tool calls, or both.
   *
   * @param toolUses the tools the model called, in order; empty for a final answer
   */
  record Assistant(String text, List<ToolUse> toolUses) implements ChatMessage {
    public Assistant {
      text = text == null ? "" : text;
      toolUses = toolUses == null ? List.of() : List.copyOf(toolUses);
    }
  }

  /**
   * A tool's result, sent back to the model.
   *
   * @param toolUseId the id of the {@link ToolUse} it answers
   * @param name the tool's name
   * @param error true when the tool failed and {@code text} says why
   */
  record ToolResult(String toolUseId, String name, String text, boolean error)
      implements ChatMessage {
    public ToolResult {
      Objects.requireNonNull(toolUseId, "toolUseId");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * A tool call of the model.
   *
   * @param id the call's id, as the model's API gave it (Legio makes one up where the API has none)
   * @param inputJson the input, a JSON object as text
   */
  record ToolUse(String id, String name, String inputJson) {
    public ToolUse {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
      inputJson = inputJson == null || inputJson.isBlank() ? "{}" : inputJson;
    }
  }
}
