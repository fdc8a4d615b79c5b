package dev.legio.session;

/** The store behind the session records failed (lost connection, locked or corrupt file, ...). */
public class SessionStoreException extends RuntimeException {
  public SessionStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public SessionStoreException(String message) {
    super(message);
  }
}
