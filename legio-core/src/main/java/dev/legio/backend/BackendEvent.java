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

  /**
   * Before the turn, the conversation passed its compaction threshold and is being compacted.
   *
   * @param messages the messages about to be summarised
   * @param tokens the conversation's size in tokens
   * @param threshold the size at which it is compacted
   */
  record CompactionStarted(int messages, long tokens, long threshold) implements BackendEvent {}

  /**
   * A compaction finished: {@code messagesCompacted} older messages were replaced by {@code
   * summary} (the {@code <context_summary>} block the model now reads instead).
   */
  record CompactionEnded(int messagesCompacted, long tokensBefore, long tokensAfter, String summary)
      implements BackendEvent {
    /** How many tokens the compaction freed. */
    public long tokensFreed() {
      return Math.max(0, tokensBefore - tokensAfter);
    }
  }

  /**
   * A compaction failed; the turn goes on with the whole conversation.
   *
   * @param consecutiveFailures failures in a row, this one included
   * @param disabled true when this failure turned auto-compact off for the session
   */
  record CompactionFailed(String reason, int consecutiveFailures, boolean disabled)
      implements BackendEvent {}
}
