package dev.legio.session;

import dev.legio.errors.ExplainedFailure;

/**
 * The store behind the session records failed (lost connection, locked or corrupt file, ...). Its
 * message says what failed and what to check (the database, a damaged row), so the API answers with
 * it rather than a bare "internal error".
 */
public class SessionStoreException extends RuntimeException implements ExplainedFailure {
  public SessionStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public SessionStoreException(String message) {
    super(message);
  }
}
