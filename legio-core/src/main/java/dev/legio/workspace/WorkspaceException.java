package dev.legio.workspace;

/** A workspace that is missing or cannot be created; the message says what to do. */
public class WorkspaceException extends RuntimeException {
  public WorkspaceException(String message) {
    super(message);
  }

  public WorkspaceException(String message, Throwable cause) {
    super(message, cause);
  }
}
