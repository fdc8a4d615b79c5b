package dev.legio.app.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.store.gateway.GatewayReport;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class GatewayTableTest {
  private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

  @Test
  void noReportIsNoBlock() {
    assertThat(GatewayTable.format(List.of(), NOW)).isEmpty();
  }

  @Test
  void eachGatewayShowsItsStateCountsAndWhyAndAnOldReportSaysSo() {
    String table =
        GatewayTable.format(
            List.of(
                new GatewayReport("discord", "connected", "", 3, 4, NOW.minusSeconds(5)),
                new GatewayReport(
                    "telegram",
                    "failing",
                    "Telegram refuses the bot token in TELEGRAM_BOT_TOKEN\n(401)",
                    0,
                    0,
                    NOW.minusSeconds(600))),
            NOW);
    assertThat(table.lines().toList())
        .hasSize(3)
        .satisfies(l -> assertThat(l.get(0)).matches("GATEWAY +STATE +IN +OUT +REPORTED +DETAIL"))
        .satisfies(l -> assertThat(l.get(1)).matches("discord +connected +3 +4 +5s ago"))
        .satisfies(
            l ->
                assertThat(l.get(2))
                    .startsWith("telegram")
                    .contains("failing", "10m ago", "is legio serve running?")
                    .contains("TELEGRAM_BOT_TOKEN\\u000a(401)"));
  }
}
