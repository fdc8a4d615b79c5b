package dev.legio.usage;

/**
 * The database refused to begin the transaction that was to write usage rows (SQLite's file held by
 * another program past its busy wait, PostgreSQL out of reach): no row was written or even looked
 * at, so none of them is to blame, and writing them again, alone or together, only waits the same
 * again until the fault ends. The message says which write and why.
 */
public final class UsageWriteNotBegunException extends UsageLedgerException {
  public UsageWriteNotBegunException(String message, Throwable cause) {
    super(message, cause);
  }
}
