package dev.legio.config;

import dev.legio.pricing.ModelPrice;
import dev.legio.pricing.PriceTable;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code [usage]} section and the {@code [pricing."MODEL"]} tables: how long the usage ledger
 * keeps turns, and the prices that override or add to the built-in ones ({@code
 * dev.legio.pricing.PriceTable}).
 *
 * @param keepDays days a turn stays in the ledger (or the sessions' longest TTL, if longer)
 * @param pricing model name → price per million tokens, from {@code [pricing."MODEL"]}: keys {@code
 *     input}, {@code output}, {@code cache_read}, {@code cache_write}; a key left out takes the
 *     built-in price of that model, or, for a model Legio does not know, is required for {@code
 *     input} and {@code output} while the cache keys default to {@code input}
 */
public record UsageSettings(int keepDays, Map<String, ModelPrice> pricing) {
  public static final int DEFAULT_KEEP_DAYS = 400;

  public UsageSettings {
    pricing = Map.copyOf(pricing);
  }

  public static UsageSettings defaults() {
    return new UsageSettings(DEFAULT_KEEP_DAYS, Map.of());
  }

  static UsageSettings read(TomlTable usage, TomlTable pricing) {
    int keepDays = (int) usage.integer("keep_days", DEFAULT_KEEP_DAYS, 1, 100_000);
    Map<String, ModelPrice> prices = new TreeMap<>();
    for (String model : pricing.keys()) {
      if (model.isBlank()) {
        throw pricing.problem("a model name cannot be empty");
      }
      prices.put(model, price(pricing.table(model), model));
    }
    return new UsageSettings(keepDays, prices);
  }

  private static ModelPrice price(TomlTable t, String model) {
    ModelPrice known = PriceTable.builtInPrice(model).orElse(null);
    for (String key : List.of("input", "output")) {
      if (known == null && !t.has(key)) {
        throw t.problem(
            key
                + " is required: Legio has no built-in price for \""
                + model
                + "\" (USD per million tokens, e.g. "
                + key
                + " = 3.0)");
      }
    }
    BigDecimal input = t.decimal("input", known == null ? null : known.input());
    return new ModelPrice(
        input,
        t.decimal("output", known == null ? null : known.output()),
        t.decimal("cache_read", known == null ? input : known.cacheRead()),
        t.decimal("cache_write", known == null ? input : known.cacheWrite()));
  }
}
