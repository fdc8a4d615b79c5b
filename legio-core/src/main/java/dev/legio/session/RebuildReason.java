package dev.legio.session;

/** Why a session was closed and a new one opened in its place. Each is logged and counted. */
public enum RebuildReason {
  /** The agent's prompt.md changed (its SHA-256 differs from the session's). */
  PROMPT_CHANGED("prompt changed"),
  /** The legatus's roster (the centuriones' names and descriptions) changed. */
  ROSTER_CHANGED("roster changed"),
  /** Cumulative input tokens passed the session's {@code max_input_tokens}. */
  TOKEN_LIMIT("input token limit reached"),
  /** No activity for longer than {@code session_idle_timeout_minutes}. */
  IDLE("idle timeout"),
  /** {@code /reset} or {@code legio reset}. */
  RESET("reset"),
  /** Legio restarted and the back-end could not resume the conversation. */
  RESTART("restart without resume"),
  /** The back-end changed (another kind was configured). */
  BACKEND_CHANGED("back-end changed"),
  /**
   * The back-end lost the conversation during a turn (it no longer had it, or it outgrew the
   * context window); the turn was sent again to a new session.
   */
  BACKEND_LOST("back-end lost the conversation"),
  /**
   * The stored session record was damaged (a value in its row Legio does not write, such as an
   * unknown state): the session could not be continued from it ({@link DamagedSession}).
   */
  DAMAGED_RECORD("damaged session record");

  private final String description;

  RebuildReason(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }
}
