package dev.legio.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DurationsTest {
  private static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");

  @Test
  void bothFormsReadAnAge() {
    assertThat(Durations.parse("30d")).isEqualTo(Duration.ofDays(30));
    assertThat(Durations.parse(" 12H ")).isEqualTo(Duration.ofHours(12));
    assertThat(Durations.parse("p90d")).isEqualTo(Duration.ofDays(90));
    assertThat(Durations.parse("999999999d")).isEqualTo(Durations.MAX);
    assertThat(Durations.parse("P999999999D")).isEqualTo(Durations.MAX);
  }

  @Test
  void anAgeLongerThanTheShortFormCanSayIsRefusedSayingTheRange() {
    for (String text :
        new String[] {
          "P1000000000D",
          "P106751991167300D",
          "PT2562047788015215H",
          "1000000000d",
          "99999999999999999999999h"
        }) {
      assertThatThrownBy(() -> Durations.parse(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + text + "' is too long an age: at most 999999999 days");
    }
    // More seconds than a Duration holds.
    assertThatThrownBy(() -> Durations.parse("P999999999999999999D"))
        .hasMessageContaining("at most 999999999 days");
    assertThatThrownBy(() -> Durations.parse("-P1D")).hasMessageContaining("is not an age");
    assertThatThrownBy(() -> Durations.parse("soon")).hasMessageContaining("is not an age");
  }

  @Test
  void bothFormsSayTheSameAgesAndOnlySpacesAroundThemAreIgnored() {
    assertThat(Durations.parse("9999999999s")).isEqualTo(Durations.parse("PT9999999999S"));
    assertThat(Durations.parse("86399999913600s")).isEqualTo(Durations.MAX);
    assertThatThrownBy(() -> Durations.parse("1d\u0000"))
        .hasMessage(
            "'1d\\u0000' is not an age: use a number and d, h, m or s (90d, 12h) or"
                + " ISO-8601 (P90D)");
  }

  @Test
  void countedBackFromNowAnAgeStopsAt1970() {
    assertThat(Durations.before(NOW, Duration.ofDays(1)))
        .isEqualTo(Instant.parse("2026-11-19T10:00:00Z"));
    assertThat(Durations.before(NOW, Duration.between(Instant.EPOCH, NOW)))
        .isEqualTo(Instant.EPOCH);
    assertThat(Durations.before(NOW, Duration.ofDays(30_000))).isEqualTo(Durations.EARLIEST);
    assertThat(Durations.before(NOW, Durations.MAX)).isEqualTo(Instant.EPOCH);
    assertThat(Durations.before(NOW, Duration.ZERO)).isEqualTo(NOW);
  }
}
