package dev.legio.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.OffsetDateTime;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class TimestampsTest {
  @Property(tries = 5000)
  void formatThenParseGivesTheSameInstantAsTheGeneralParser(
      @ForAll @LongRange(min = -62_000_000_000L, max = 253_000_000_000L) long seconds,
      @ForAll @LongRange(min = 0, max = 999_999) long micros) {
    Instant instant = Instant.ofEpochSecond(seconds, micros * 1000);
    String text = Timestamps.format(instant);
    assertThat(text).hasSize(instant.atOffset(java.time.ZoneOffset.UTC).getYear() > 9999 ? 33 : 32);
    assertThat(Timestamps.parse(text)).isEqualTo(instant);
    assertThat(OffsetDateTime.parse(text).toInstant()).isEqualTo(instant);
  }

  @Test
  void readsLegiosPythonIsoformatTimestamps() {
    assertThat(Timestamps.parse("2026-02-15T12:00:00+00:00"))
        .isEqualTo(Instant.parse("2026-02-15T12:00:00Z"));
    assertThat(Timestamps.parse("2026-02-15T12:00:00.5+00:00"))
        .isEqualTo(Instant.parse("2026-02-15T12:00:00.500Z"));
    assertThat(Timestamps.parse("2026-02-15T13:00:00+01:00"))
        .isEqualTo(Instant.parse("2026-02-15T12:00:00Z"));
    assertThat(Timestamps.parse("2026-02-15T12:00:00"))
        .isEqualTo(Instant.parse("2026-02-15T12:00:00Z"));
  }

  @Test
  void theFastPathRejectsImpossibleDatesLikeTheGeneralParser() {
    assertThatThrownBy(() -> Timestamps.parse("2026-02-30T12:00:00.000000+00:00"))
        .isInstanceOf(InvalidMessageException.class)
        .hasMessageContaining("is not ISO-8601");
    assertThatThrownBy(() -> Timestamps.parse("yesterday"))
        .isInstanceOf(InvalidMessageException.class);
  }
}
