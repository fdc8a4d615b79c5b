package dev.legio.app.text;

import dev.legio.usage.UsageTotal;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * How costs are shown: USD with four decimals ({@code $0.0123}); a sum that leaves out turns of
 * unknown cost says so ({@code $1.2000 + 3 unknown}); a sum of unknown costs only is {@code
 * unknown}. Never a guess.
 */
public final class CostText {
  private CostText() {}

  public static String of(UsageTotal total) {
    if (total.costUsd() == null) {
      return total.unknownCostTurns() > 0 ? "unknown" : "$0.0000";
    }
    String known = usd(total.costUsd());
    return total.unknownCostTurns() > 0
        ? known + " + " + total.unknownCostTurns() + " unknown"
        : known;
  }

  public static String usd(BigDecimal usd) {
    return "$" + usd.setScale(4, RoundingMode.HALF_UP).toPlainString();
  }
}
