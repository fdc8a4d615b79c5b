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

  /**
   * {@code action} failed on the database named {@code database} ({@code sqlite}, {@code
   * postgres}): what failed, the database's words, and to check that it is reachable.
   */
  public static SessionStoreException databaseFailed(
      String action, String database, java.sql.SQLException e) {
    return new SessionStoreException(
        action
            + " in the "
            + database
            + " database failed: "
            + e.getMessage()
            + ". Check that the database (praetorium in legio.toml) is reachable.",
        e);
  }
}
