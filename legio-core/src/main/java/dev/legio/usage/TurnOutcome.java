package dev.legio.usage;

import com.fasterxml.jackson.annotation.JsonValue;

/** How a turn in the ledger ended. */
public enum TurnOutcome {
  /** The model answered and the answer was logged. */
  COMPLETED("completed"),
  /** The turn failed (the back-end or the store); what it consumed before failing is counted. */
  FAILED("failed");

  private final String label;

  TurnOutcome(String label) {
    this.label = label;
  }

  /** The name (also its JSON form) stored in the ledger. */
  @JsonValue
  public String label() {
    return label;
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
