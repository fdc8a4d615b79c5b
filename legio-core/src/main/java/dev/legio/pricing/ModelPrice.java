package dev.legio.pricing;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Objects;

/**
 * What a model costs, in USD per million tokens, for each kind of token a turn is billed for.
 *
 * @param input uncached input
 * @param output output (thinking included)
 * @param cacheRead input read from the prompt cache
 * @param cacheWrite input written to the prompt cache (Anthropic's five-minute cache; OpenAI
 *     charges none beyond input)
 */
public record ModelPrice(
    BigDecimal input, BigDecimal output, BigDecimal cacheRead, BigDecimal cacheWrite) {
  private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

  /** Nothing: models that run on the user's own machine. */
  public static final ModelPrice FREE =
      new ModelPrice(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);

  public ModelPrice {
    for (BigDecimal price : new BigDecimal[] {input, output, cacheRead, cacheWrite}) {
      Objects.requireNonNull(price, "price");
      if (price.signum() < 0) {
        throw new IllegalArgumentException("a price cannot be negative: " + price);
      }
    }
  }

  /** A price from plain numbers (USD per million tokens). */
  public static ModelPrice of(String input, String output, String cacheRead, String cacheWrite) {
    return new ModelPrice(
        new BigDecimal(input),
        new BigDecimal(output),
        new BigDecimal(cacheRead),
        new BigDecimal(cacheWrite));
  }

  /** The exact cost of {@code tokens} at this price, in USD. */
  public BigDecimal costOf(Tokens tokens) {
    BigDecimal perMillion =
        input
            .multiply(BigDecimal.valueOf(tokens.input()))
            .add(output.multiply(BigDecimal.valueOf(tokens.output())))
            .add(cacheRead.multiply(BigDecimal.valueOf(tokens.cacheRead())))
            .add(cacheWrite.multiply(BigDecimal.valueOf(tokens.cacheWrite())));
    return perMillion.divide(MILLION, MathContext.DECIMAL128).stripTrailingZeros();
  }
}
