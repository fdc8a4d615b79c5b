package dev.legio.usage;

/**
 * The database refused a usage row for what it holds (a constraint or a trigger refusing it, a
 * value its column cannot hold: {@code log.jdbc.ContentRefusal}'s rules) while it takes other
 * writes: writing the same row again fails again. The message says which row and why.
 */
public final class UsageRowRefusedException extends UsageLedgerException {
  public UsageRowRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
