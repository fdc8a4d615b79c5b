package dev.legio.app.text;

import dev.legio.backend.ContextUse;
import java.util.Locale;

/**
 * How {@code legio status}, {@code /status} and {@code legio sessions list} show a session's
 * context use: {@code 42% of 200K} (the share of the model's window in use, rounded; {@code <1%}
 * for a little above nothing), {@code -} without figures.
 */
public final class ContextFigures {
  private ContextFigures() {}

  /** {@code 42% of 200K}; {@code -} for null or an unknown window. */
  public static String describe(ContextUse use) {
    if (use == null || use.window() <= 0) {
      return "-";
    }
    return percent(use) + " of " + tokens(use.window());
  }

  /** {@code 42%}, {@code <1%} above zero, {@code 104%} past the window. */
  public static String percent(ContextUse use) {
    double percent = use.percent();
    if (use.tokens() > 0 && percent < 0.5) {
      return "<1%";
    }
    return Math.round(percent) + "%";
  }

  /** {@code 200K}, {@code 8K}, {@code 1M}, {@code 1.5M}; below a thousand as it is. */
  public static String tokens(long count) {
    if (count >= 1_000_000) {
      String millions = String.format(Locale.ROOT, "%.1f", count / 1_000_000.0);
      return (millions.endsWith(".0") ? millions.substring(0, millions.length() - 2) : millions)
          + "M";
    }
    if (count >= 1_000) {
      return Math.round(count / 1_000.0) + "K";
    }
    return String.valueOf(count);
  }

  /**
   * {@code auto-compact off after 3 failures} when the circuit breaker stopped compaction for the
   * session; null otherwise.
   */
  public static String compactionNote(ContextUse use) {
    if (use == null || !use.compactionDisabled()) {
      return null;
    }
    int failures = use.compactionFailures();
    return "auto-compact off after "
        + failures
        + (failures == 1 ? " failure" : " failures")
        + " (a reset starts a fresh session)";
  }
}
