package dev.legio.task;

/**
 * The back-end failed the task's turn. The session is as it was before the turn (its record and
 * conversation unchanged), so sending the task again is safe.
 */
public final class TaskFailedException extends RuntimeException {
  TaskFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
