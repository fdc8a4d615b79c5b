package dev.legio.usage;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.legio.pricing.PriceTable;

/** Where the cost a ledger row counts ({@link TurnCost#usd()}) came from. */
public enum CostSource {
  /** The back-end's own figure (the Claude Code CLI's {@code total_cost_usd}). */
  REPORTED("reported"),
  /** Legio's {@link PriceTable}: the turn's tokens at the model's price. */
  PRICE_TABLE("price-table"),
  /** A back-end that runs locally (Ollama, offline): nothing. */
  LOCAL("local"),
  /** Neither: the back-end reported none and the model has no price. The cost is unknown. */
  UNKNOWN("unknown");

  private final String label;

  CostSource(String label) {
    this.label = label;
  }

  /** The name (also its JSON form) stored in the ledger and shown to users. */
  @JsonValue
  public String label() {
    return label;
  }

  public static CostSource ofLabel(String label) {
    for (CostSource s : values()) {
      if (s.label.equals(label)) {
        return s;
      }
    }
    throw new IllegalArgumentException("not a cost source: " + label);
  }
}
