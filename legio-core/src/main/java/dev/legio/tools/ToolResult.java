package dev.legio.tools;

/**
 * What a tool call returns to the model: text, and whether it is an error (the model should read it
 * and correct its call, not take it as a result).
 */
public record ToolResult(String text, boolean error) {
  public static ToolResult ok(String text) {
    return new ToolResult(text, false);
  }

  public static ToolResult error(String text) {
    return new ToolResult(text, true);
  }
}
