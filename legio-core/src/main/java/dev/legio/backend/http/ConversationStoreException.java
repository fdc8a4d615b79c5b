package dev.legio.backend.http;

/** A conversation could not be read or written. The message says why and what to check. */
public class ConversationStoreException extends RuntimeException {
  public ConversationStoreException(String message) {
    super(message);
  }

  public ConversationStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
