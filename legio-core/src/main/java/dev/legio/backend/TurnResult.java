package dev.legio.backend;

import java.util.Objects;

/**
 * The outcome of one turn.
 *
 * @param text the model's answer
 * @param usage the tokens the turn cost
 */
public record TurnResult(String text, Usage usage) {
  public TurnResult {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(usage, "usage");
  }
}
