package dev.legio.backend;

import java.util.Objects;

/**
 * The outcome of one turn.
 *
 * @param text the model's answer
 * @param usage the tokens the turn cost
 * @param context how full the session's context is after the turn; null when the back-end cannot
 *     tell
 */
public record TurnResult(String text, Usage usage, ContextUse context) {
  public TurnResult {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(usage, "usage");
  }

  /** A result without context figures. */
  public TurnResult(String text, Usage usage) {
    this(text, usage, null);
  }
}
