package dev.legio.usage;

import dev.legio.errors.ExplainedFailure;

/**
 * The usage ledger could not be read or written (the database failed); the message says what was
 * being done and why it failed ("reading the usage ledger failed: ...").
 */
public class UsageLedgerException extends RuntimeException implements ExplainedFailure {
  public UsageLedgerException(String message, Throwable cause) {
    super(message, cause);
  }
}
