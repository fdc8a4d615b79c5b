package dev.legio.backend;

/**
 * What a back-end reports while a turn runs, in order; the turn's answer is returned at the end.
 */
public sealed interface BackendEvent {

  /** A progress line for the user, such as {@code ⏳ Thinking...}. */
  record Status(String text) implements BackendEvent {}

  /** Answer text as it is produced (a whole block or a streamed piece). */
  record Text(String text) implements BackendEvent {}

  /** The model called a tool. */
  record ToolCall(String name, String inputJson) implements BackendEvent {}
}
