package dev.legio.backend;

/**
 * A turn failed because the back-end did not answer within its time limit (the Claude Code CLI's
 * {@code turn_timeout_seconds}); what it had started was stopped. The message says how long it
 * waited and which setting sets it.
 */
public class TurnTimeoutException extends BackendException {
  public TurnTimeoutException(String message) {
    super(message);
  }
}
