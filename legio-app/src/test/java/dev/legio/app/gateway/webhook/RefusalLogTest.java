package dev.legio.app.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.LogCapture;
import dev.legio.testing.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RefusalLogTest {
  private static final String ADVICE = "If these are Slack's own requests, check the secret.";

  @Test
  void aFloodOfRefusalsLogsOneLineAMinuteThatCountsTheRest() {
    MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
    RefusalLog refusals = new RefusalLog("slack", ADVICE, clock);
    try (LogCapture logged = new LogCapture()) {
      for (int i = 0; i < 1_000; i++) {
        refusals.refused("invalid request signature");
      }
      assertThat(logged.warningsAndErrors().lines())
          .containsExactly(
              "gateway slack: refused a request: invalid request signature. " + ADVICE);

      clock.advance(Duration.ofSeconds(59));
      refusals.refused("invalid request signature");
      assertThat(logged.warningsAndErrors().lines()).hasSize(1);

      clock.advance(Duration.ofSeconds(1));
      refusals.refused("the request's timestamp is more than 5 minutes from now (a replay?)");
      assertThat(logged.warningsAndErrors().lines())
          .hasSize(2)
          .last()
          .isEqualTo(
              "gateway slack: refused a request: the request's timestamp is more than 5 minutes"
                  + " from now (a replay?) (1000 more refused since the last such line). "
                  + ADVICE);
    }
  }

  @Test
  void eachGatewayHasItsOwnMinute() {
    MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
    try (LogCapture logged = new LogCapture()) {
      new RefusalLog("slack", ADVICE, clock).refused("a");
      new RefusalLog("discord", ADVICE, clock).refused("b");
      assertThat(logged.warningsAndErrors().lines()).hasSize(2);
    }
  }
}
