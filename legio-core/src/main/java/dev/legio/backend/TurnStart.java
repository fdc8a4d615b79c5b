package dev.legio.backend;

import java.time.Duration;

/**
 * When a turn, as the user sees it, was first sent to a back-end ({@link System#nanoTime}).
 *
 * <p>Rule: a back-end with a turn time-out counts it from here, not from each try: a turn the
 * back-end tries again (the Claude Code CLI's {@code --resume} after "already in use"), or that the
 * engine sends again on a new session after the back-end lost the old one ({@link
 * SessionLostException}), gets what is left of the one time-out, never a fresh one.
 *
 * @param nanoTime the {@link System#nanoTime} the turn started at
 */
public record TurnStart(long nanoTime) {

  /** A turn starting now. */
  public static TurnStart now() {
    return new TurnStart(System.nanoTime());
  }

  /** The {@link System#nanoTime} by which a turn that may take {@code timeout} must be over. */
  public long deadline(Duration timeout) {
    return nanoTime + timeout.toNanos();
  }
}
