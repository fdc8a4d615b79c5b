package dev.legio.backend;

/**
 * The back-end no longer has the conversation a session was continuing (it forgot it, or the
 * conversation grew past the model's context window). Nothing of the turn was delivered; the caller
 * should open a new session, give it the context it lost (history from the log and the context
 * notice) and send the turn again.
 */
public class SessionLostException extends BackendException {
  public SessionLostException(String message) {
    super(message);
  }
}
