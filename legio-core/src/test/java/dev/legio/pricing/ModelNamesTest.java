package dev.legio.pricing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The model-name rule of {@link ModelNames}, one row per case, through the built-in table. */
class ModelNamesTest {
  private final PriceTable prices = PriceTable.builtIn();

  @ParameterizedTest(name = "{0} is priced as {1}")
  @CsvSource(
      nullValues = "UNKNOWN",
      value = {
        // the name itself
        "claude-sonnet-4-5,          claude-sonnet-4-5",
        "gpt-4o-mini,                gpt-4o-mini",
        // case and blanks do not matter
        "'  Claude-Opus-4-1 ',       claude-opus-4-1",
        // Anthropic's dated ids
        "claude-sonnet-4-5-20250929, claude-sonnet-4-5",
        "claude-haiku-4-5-20251001,  claude-haiku-4-5",
        "claude-opus-4-20250514,     claude-opus-4",
        "claude-3-5-haiku-20241022,  claude-3-5-haiku",
        // OpenAI's dated ids
        "gpt-4o-2024-08-06,          gpt-4o",
        "gpt-4o-mini-2024-07-18,     gpt-4o-mini",
        "gpt-4.1-2025-04-14,         gpt-4.1",
        "o3-2025-04-16,              o3",
        // -latest
        "claude-3-7-sonnet-latest,   claude-3-7-sonnet",
        // no prefix matching, no aliases, no guessing
        "gpt-4o-mini-audio-preview,  UNKNOWN",
        "gpt-4,                      UNKNOWN",
        "sonnet,                     UNKNOWN",
        "claude-sonnet-4-5[1m],      UNKNOWN",
        "claude-sonnet-4-5-2025,     UNKNOWN",
        "llama3.2,                   UNKNOWN",
        "'',                         UNKNOWN",
      })
  void aNameFindsItsEntryByTheRule(String model, String entry) {
    if (entry == null) {
      assertThat(prices.priceOf(model)).isEmpty();
    } else {
      assertThat(prices.priceOf(model)).contains(PriceTable.builtInPrice(entry).orElseThrow());
    }
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "claude-sonnet-4-5-20250929, 'claude-sonnet-4-5-20250929,claude-sonnet-4-5'",
    "gpt-4o-2024-08-06,          'gpt-4o-2024-08-06,gpt-4o'",
    "claude-3-7-sonnet-latest,   'claude-3-7-sonnet-latest,claude-3-7-sonnet'",
    "GPT-4O,                     'gpt-4o'",
  })
  void candidatesAreTriedExactFirst(String model, String expected) {
    assertThat(String.join(",", ModelNames.candidates(model))).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"claude-sonnet-4-5-20250929", "claude-sonnet-4-5"})
  void anOverrideOfTheUndatedNameAppliesToTheDatedId(String model) {
    ModelPrice cheap = ModelPrice.of("1", "2", "0.1", "1.25");
    PriceTable table = PriceTable.withOverrides(java.util.Map.of("Claude-Sonnet-4-5", cheap));
    assertThat(table.priceOf(model)).contains(cheap);
    assertThat(table.costOf("anthropic", model, new Tokens(1_000_000, 0, 0, 0)))
        .isEqualByComparingTo(BigDecimal.ONE);
  }
}
