package dev.legio.backend;

/**
 * How full a session's context is after a turn: what {@code legio status} and {@code legio sessions
 * list} show.
 *
 * @param tokens the conversation's size in tokens, as the back-end reported or Legio estimated
 * @param window the model's context window in tokens
 * @param compactionFailures consecutive failed compactions (0 when the last one worked, or none
 *     ran)
 * @param compactionDisabled true when auto-compact is off for this session after too many failures
 */
public record ContextUse(
    long tokens, long window, int compactionFailures, boolean compactionDisabled) {
  public ContextUse {
    if (tokens < 0 || window < 0 || compactionFailures < 0) {
      throw new IllegalArgumentException("context use cannot be negative");
    }
  }

  /** A context of {@code tokens} in a {@code window}, with no compaction trouble. */
  public static ContextUse of(long tokens, long window) {
    return new ContextUse(tokens, window, 0, false);
  }

  /** The share of the window in use, in percent (0 when the window is unknown). */
  public double percent() {
    return window <= 0 ? 0 : 100.0 * tokens / window;
  }
}
