package dev.legio.usage;

import dev.legio.pricing.PriceTable;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The cost of one turn: both figures Legio has, and the one it counts.
 *
 * <p>Rule ({@link #choose}): the back-end's own figure, when it reports one, is the one counted:
 * the Claude Code CLI prices every request of a turn at the model that served it (including the
 * helper models it calls on its own), which Legio cannot see; else the price table's; a local
 * back-end costs zero; otherwise the cost is unknown (null), never guessed.
 *
 * @param usd the cost counted, in USD; null when unknown
 * @param priceTableUsd the turn's tokens at the price table's price; null when the model has none
 * @param reportedUsd the back-end's own figure; null when it reports none
 * @param source which of them {@code usd} is
 */
public record TurnCost(
    BigDecimal usd, BigDecimal priceTableUsd, BigDecimal reportedUsd, CostSource source) {
  public TurnCost {
    Objects.requireNonNull(source, "source");
    if ((usd == null) != (source == CostSource.UNKNOWN)) {
      throw new IllegalArgumentException("a cost is unknown exactly when its source is unknown");
    }
  }

  /** The cost counted for a turn of {@code backendKind} with these figures (see the rule above). */
  public static TurnCost choose(String backendKind, BigDecimal priceTableUsd, BigDecimal reported) {
    if (reported != null) {
      return new TurnCost(reported, priceTableUsd, reported, CostSource.REPORTED);
    }
    if (PriceTable.FREE_KINDS.contains(backendKind)) {
      return new TurnCost(BigDecimal.ZERO, priceTableUsd, null, CostSource.LOCAL);
    }
    if (priceTableUsd != null) {
      return new TurnCost(priceTableUsd, priceTableUsd, null, CostSource.PRICE_TABLE);
    }
    return new TurnCost(null, null, null, CostSource.UNKNOWN);
  }
}
