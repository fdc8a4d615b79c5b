package dev.legio.log;

import dev.legio.errors.UsageError;

/**
 * A message, name or query that the log refuses. The message says what was wrong and what a valid
 * value looks like; nothing was written.
 */
public class InvalidMessageException extends IllegalArgumentException implements UsageError {
  public InvalidMessageException(String message) {
    super(message);
  }
}
