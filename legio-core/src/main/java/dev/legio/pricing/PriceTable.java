package dev.legio.pricing;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The price of each model, and so the cost of a turn.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Back-ends that run on the user's machine ({@code ollama}, {@code offline}) cost nothing,
 *       whatever the model.
 *   <li>Otherwise the model is looked up by {@link ModelNames} (exact name, then without a date or
 *       {@code -latest} suffix); at each step an entry of {@code [pricing."MODEL"]} wins over the
 *       built-in one ({@link BuiltInPrices}).
 *   <li>A model found by no rule, or no model at all (the back-end's default), has an unknown cost:
 *       {@link #costOf} returns null. Legio never guesses a price.
 * </ul>
 */
public final class PriceTable {
  /** The back-end kinds whose models run locally and cost nothing. */
  public static final Set<String> FREE_KINDS = Set.of("ollama", "offline");

  private final Map<String, ModelPrice> overrides;
  private final Map<String, ModelPrice> builtIn;

  private PriceTable(Map<String, ModelPrice> overrides, Map<String, ModelPrice> builtIn) {
    this.overrides = overrides;
    this.builtIn = builtIn;
  }

  /** The built-in prices, with {@code overrides} (model name → price) taking precedence. */
  public static PriceTable withOverrides(Map<String, ModelPrice> overrides) {
    Map<String, ModelPrice> keyed = new LinkedHashMap<>();
    overrides.forEach((name, price) -> keyed.put(ModelNames.normalise(name), price));
    return new PriceTable(Map.copyOf(keyed), Map.copyOf(BuiltInPrices.all()));
  }

  /** The built-in prices only. */
  public static PriceTable builtIn() {
    return withOverrides(Map.of());
  }

  /** The built-in price of {@code model} (exact name), if Legio knows one: for defaults. */
  public static Optional<ModelPrice> builtInPrice(String model) {
    return Optional.ofNullable(BuiltInPrices.all().get(ModelNames.normalise(model)));
  }

  /** The price of {@code model} by the rules above (ignoring the back-end kind). */
  public Optional<ModelPrice> priceOf(String model) {
    for (String name : ModelNames.candidates(model)) {
      ModelPrice price = overrides.get(name);
      if (price == null) {
        price = builtIn.get(name);
      }
      if (price != null) {
        return Optional.of(price);
      }
    }
    return Optional.empty();
  }

  /**
   * The cost in USD of {@code tokens} on {@code model} of back-end {@code backendKind}: zero for
   * local back-ends, null when the model's price is unknown.
   */
  public BigDecimal costOf(String backendKind, String model, Tokens tokens) {
    if (FREE_KINDS.contains(backendKind)) {
      return BigDecimal.ZERO;
    }
    return priceOf(model).map(p -> p.costOf(tokens)).orElse(null);
  }
}
