package dev.legio.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.pricing.Tokens;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A usage report serialises as plain JSON with a plain ObjectMapper (for GET /api/v1/usage). */
class UsageReportJsonTest {
  @Test
  void aReportIsPlainJson() throws Exception {
    UsageReport report =
        UsageReport.of(
            Instant.parse("2026-11-16T10:00:00Z"),
            Grouping.TASK_RUN,
            List.of(
                new UsageTotal("run-1", 2, new Tokens(10, 20, 30, 40), new BigDecimal("0.25"), 0),
                new UsageTotal(null, 1, new Tokens(1, 2, 3, 4), null, 1)));

    JsonNode json = new ObjectMapper().valueToTree(report);

    assertThat(json.get("since").asText()).isEqualTo("2026-11-16T10:00:00Z");
    assertThat(json.get("by").asText()).isEqualTo("task-run");
    assertThat(json.at("/rows/0/group").asText()).isEqualTo("run-1");
    assertThat(json.at("/rows/0/tokens/cacheWrite").asLong()).isEqualTo(40);
    assertThat(json.at("/rows/1/costUsd").isNull()).isTrue();
    assertThat(json.at("/total/turns").asLong()).isEqualTo(3);
    assertThat(json.at("/total/costUsd").decimalValue()).isEqualByComparingTo("0.25");
    assertThat(json.at("/total/unknownCostTurns").asLong()).isEqualTo(1);
  }
}
