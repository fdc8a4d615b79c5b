package dev.legio.task;

/** The task session store's database failed; the message says what was being done. */
public class TaskSessionStoreException extends RuntimeException {
  public TaskSessionStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
