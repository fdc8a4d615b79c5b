package dev.legio.usage;

/** The usage ledger could not be read or written (the database failed); the message says why. */
public class UsageLedgerException extends RuntimeException {
  public UsageLedgerException(String message, Throwable cause) {
    super(message, cause);
  }
}
