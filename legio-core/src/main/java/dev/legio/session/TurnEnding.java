package dev.legio.session;

import java.util.Locale;

/** How a turn the engine ran for a logged request ended. A closed set, each with its label. */
public enum TurnEnding {
  /** The model answered and the answer was logged. */
  COMPLETED,
  /** The back-end or the store failed; the request got the error answer. */
  FAILED,
  /**
   * The owner was busy (the request waited longer than {@code lock_wait}, or another process held
   * the session's lease); the request got the busy answer and never reached the model.
   */
  BUSY,
  /** Legio shut down before the owner answered; the interruption was logged as the answer. */
  INTERRUPTED;

  /** {@code completed}, {@code failed}, {@code busy}, {@code interrupted}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
