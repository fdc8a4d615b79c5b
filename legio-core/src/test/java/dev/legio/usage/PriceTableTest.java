package dev.legio.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.Usage;
import dev.legio.pricing.ModelPrice;
import dev.legio.pricing.PriceTable;
import dev.legio.pricing.Tokens;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Cost arithmetic against the price table, and which cost a turn counts. */
class PriceTableTest {
  private final PriceTable prices = PriceTable.builtIn();

  @Test
  void aTurnCostsEachKindOfTokenAtItsPricePerMillion() {
    // claude-sonnet-4-5: $3 input, $15 output, $0.30 cache read, $3.75 cache write per million.
    Tokens tokens = new Tokens(12_000, 800, 150_000, 2_000);
    BigDecimal expected =
        new BigDecimal("0.036") // 12,000 × 3 / 1e6
            .add(new BigDecimal("0.012")) // 800 × 15 / 1e6
            .add(new BigDecimal("0.045")) // 150,000 × 0.30 / 1e6
            .add(new BigDecimal("0.0075")); // 2,000 × 3.75 / 1e6
    assertThat(prices.costOf("anthropic", "claude-sonnet-4-5-20250929", tokens))
        .isEqualByComparingTo(expected)
        .isEqualByComparingTo("0.1005");
  }

  @Test
  void openAiCachedInputIsCheaper() {
    // gpt-4o-mini: $0.15 input, $0.60 output, $0.075 cached.
    assertThat(prices.costOf("openai", "gpt-4o-mini", new Tokens(1_000, 1_000, 1_000, 0)))
        .isEqualByComparingTo("0.000825");
  }

  @Test
  void localBackEndsCostNothingAndUnknownModelsAreUnknown() {
    Tokens tokens = new Tokens(5_000, 5_000, 0, 0);
    assertThat(prices.costOf("ollama", "llama3.2", tokens)).isEqualByComparingTo("0");
    assertThat(prices.costOf("offline", null, tokens)).isEqualByComparingTo("0");
    assertThat(prices.costOf("openai", "my-fine-tune", tokens)).isNull();
    assertThat(prices.costOf("claude-cli", null, tokens)).isNull();
  }

  @Test
  void anOverrideAddsAModel() {
    PriceTable table =
        PriceTable.withOverrides(Map.of("my-fine-tune", ModelPrice.of("2", "4", "2", "2")));
    assertThat(table.costOf("openai", "my-fine-tune", new Tokens(500_000, 250_000, 0, 0)))
        .isEqualByComparingTo("2");
  }

  @Test
  void theCliCountsCacheTokensAsInputSoTheyAreTakenOut() {
    Usage cli = new Usage(10 + 200 + 30, 7, 200, 30, false);
    assertThat(BilledTokens.of("claude-cli", cli)).isEqualTo(new Tokens(10, 7, 200, 30));
    Usage api = new Usage(10, 7, 200, 30, false);
    assertThat(BilledTokens.of("anthropic", api)).isEqualTo(new Tokens(10, 7, 200, 30));
  }

  @Test
  void theBackEndsOwnCostIsCountedWhenItReportsOne() {
    TurnCost reported =
        TurnCost.choose("claude-cli", new BigDecimal("0.10"), new BigDecimal("0.12"));
    assertThat(reported.source()).isEqualTo(CostSource.REPORTED);
    assertThat(reported.usd()).isEqualByComparingTo("0.12");
    assertThat(reported.priceTableUsd()).isEqualByComparingTo("0.10");

    TurnCost table = TurnCost.choose("anthropic", new BigDecimal("0.10"), null);
    assertThat(table.source()).isEqualTo(CostSource.PRICE_TABLE);
    assertThat(table.usd()).isEqualByComparingTo("0.10");

    assertThat(TurnCost.choose("ollama", BigDecimal.ZERO, null).source())
        .isEqualTo(CostSource.LOCAL);

    TurnCost unknown = TurnCost.choose("openai", null, null);
    assertThat(unknown.source()).isEqualTo(CostSource.UNKNOWN);
    assertThat(unknown.usd()).isNull();
  }

  @Test
  void retentionIsTheLongerOfKeepDaysAndTheLongestTtl() {
    assertThat(new UsageRetention(400, java.time.Duration.ofDays(30)).keepFor().toDays())
        .isEqualTo(400);
    assertThat(new UsageRetention(10, java.time.Duration.ofDays(30)).keepFor().toDays())
        .isEqualTo(30);
  }
}
