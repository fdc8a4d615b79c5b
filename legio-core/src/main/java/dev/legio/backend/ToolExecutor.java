package dev.legio.backend;

import java.util.List;

/**
 * The tools one session's model may call (Legio's memory tools), and how to run them. Back-ends
 * that hold the conversation themselves over HTTP run the tool-use loop with it: they offer {@link
 * #definitions()} with every request, and when the model calls a tool they run {@link #execute} and
 * send the result back, until the model answers.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #execute} reports a tool's own failure (unknown tool, bad input, nothing found) as
 *       an error {@link Result} the model can read and act on; it throws only when the session
 *       cannot go on.
 *   <li>Tools are scoped by the session they are given to: a {@link Factory} decides, from the
 *       owner and role of a session, which tools it gets (a {@code chat} channel gets fewer).
 * </ul>
 */
public interface ToolExecutor {

  /** No tools: the model is offered none. */
  ToolExecutor NONE =
      new ToolExecutor() {
        @Override
        public List<ToolDefinition> definitions() {
          return List.of();
        }

        @Override
        public Result execute(String name, String inputJson) {
          return Result.error("there is no tool named '" + name + "'");
        }
      };

  /** The tools offered to the model, in a stable order (it is part of the cached prefix). */
  List<ToolDefinition> definitions();

  /** Runs the tool {@code name} with its input as JSON text, as the model sent it. */
  Result execute(String name, String inputJson);

  /**
   * What a tool returned.
   *
   * @param text the result, for the model
   * @param error true when the tool failed and {@code text} says why
   */
  record Result(String text, boolean error) {
    public static Result ok(String text) {
      return new Result(text, false);
    }

    public static Result error(String text) {
      return new Result(text, true);
    }
  }

  /** Gives each session its tools, from its owner and role. */
  @FunctionalInterface
  interface Factory {
    Factory NONE = spec -> ToolExecutor.NONE;

    ToolExecutor forSession(SessionSpec spec);
  }
}
