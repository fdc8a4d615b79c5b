package dev.legio.backend;

/** A turn or a session could not be completed by the back-end. The message says why. */
public class BackendException extends RuntimeException {
  public BackendException(String message) {
    super(message);
  }

  public BackendException(String message, Throwable cause) {
    super(message, cause);
  }
}
