package dev.legio.usage;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How a turn in the ledger ended. A failed turn is recorded with the tokens known of it (all of
 * them for a lost lease, whose model answered; none, usually, for an error or a time-out).
 */
public enum TurnOutcome {
  /** The model answered and the answer was logged. */
  OK("ok"),
  /** The back-end (or the store) failed the turn. */
  ERROR("error"),
  /** The back-end did not answer within the turn's time limit. */
  TIMEOUT("timeout"),
  /**
   * The model answered, but another process had taken the session's lease: the answer was not
   * logged, the tokens were spent.
   */
  LEASE_LOST("lease_lost");

  private final String label;

  TurnOutcome(String label) {
    this.label = label;
  }

  /** The name (also its JSON form) stored in the ledger. */
  @JsonValue
  public String label() {
    return label;
  }

  /** True for every outcome but {@link #OK}. */
  public boolean failed() {
    return this != OK;
  }

  public static TurnOutcome ofLabel(String label) {
    for (TurnOutcome o : values()) {
      if (o.label.equals(label)) {
        return o;
      }
    }
    throw new IllegalArgumentException("not a turn outcome: " + label);
  }
}
