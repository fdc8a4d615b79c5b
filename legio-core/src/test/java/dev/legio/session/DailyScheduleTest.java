package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link DailySchedule}: the daily time, and when a start makes up a missed run. */
class DailyScheduleTest {
  private static final DailySchedule AT_TWO = DailySchedule.at(LocalTime.of(2, 0));

  @ParameterizedTest(name = "{0} to {1}: {2}")
  @CsvSource({
    "2026-11-21T01:00:00Z, 02:00, PT1H",
    "2026-11-21T02:00:00Z, 02:00, PT24H",
    "2026-11-21T02:00:01Z, 02:00, PT23H59M59S",
    "2026-11-21T23:30:00Z, 00:15, PT45M",
  })
  void theDailyRunIsAtTheNextTimeOfDayInUtc(Instant now, LocalTime at, Duration expected) {
    assertThat(DailySchedule.at(at).untilNext(now)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "at {0}, last completed {1}: missed {2}")
  @CsvSource(
      nullValues = "never",
      value = {
        // Never completed: made up whenever Legio starts.
        "2026-11-21T09:00:00Z, never, true",
        "2026-11-21T01:00:00Z, never, true",
        // A daily deploy at 09:00: the run of 02:00 happened at yesterday's deploy, or not at all.
        "2026-11-21T09:00:00Z, 2026-11-20T09:01:00Z, true",
        "2026-11-21T09:00:00Z, 2026-11-21T02:00:03Z, false",
        // Started before today's time: yesterday's run is the one due.
        "2026-11-21T01:00:00Z, 2026-11-20T02:00:03Z, false",
        "2026-11-21T01:00:00Z, 2026-11-20T01:59:00Z, true",
        // Less than a day old, but from before the time that passed since: a node that runs only
        // in office hours cleans up every morning, not every other one.
        "2026-11-21T08:00:00Z, 2026-11-20T08:01:00Z, true",
        // Exactly at the time: the run due is today's.
        "2026-11-21T02:00:00Z, 2026-11-21T02:00:00Z, false",
        "2026-11-21T02:00:00Z, 2026-11-20T02:00:05Z, true",
      })
  void aStartMakesUpTheRunDueAtTheLastCleanupTimeWhenNoneCompletedSince(
      Instant now, Instant lastCompleted, boolean missed) {
    assertThat(AT_TWO.missed(now, Optional.ofNullable(lastCompleted))).isEqualTo(missed);
  }

  @ParameterizedTest(name = "{0}: due {1}")
  @CsvSource({
    "2026-11-21T09:00:00Z, 2026-11-21T02:00:00Z",
    "2026-11-21T01:59:59Z, 2026-11-20T02:00:00Z",
    "2026-11-21T02:00:00Z, 2026-11-21T02:00:00Z",
  })
  void theRunDueIsAtTheLastCleanupTimeNotAfterNow(Instant now, Instant due) {
    assertThat(AT_TWO.lastDue(now)).isEqualTo(due);
  }
}
