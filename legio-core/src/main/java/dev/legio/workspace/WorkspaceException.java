package dev.legio.workspace;

import dev.legio.errors.UsageError;

/** A workspace that is missing or cannot be created; the message says what to do. */
public class WorkspaceException extends RuntimeException implements UsageError {
  public WorkspaceException(String message) {
    super(message);
  }

  public WorkspaceException(String message, Throwable cause) {
    super(message, cause);
  }
}
