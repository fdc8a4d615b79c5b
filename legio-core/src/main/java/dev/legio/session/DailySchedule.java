package dev.legio.session;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;

/**
 * When the daily cleanup runs: every day at {@code at} UTC ({@code [sessions] cleanup_at}), and
 * soon after a start that finds the run due before it missed.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The next daily run is at the next {@code at} UTC after now; a full day later when now is
 *       exactly {@code at}.
 *   <li>The run due is the one at the last {@code at} UTC not after now. It was missed when no run
 *       completed at or after that time, or none ever did: a node (re)started after {@code at}
 *       every day (a daily deploy), or not running at night, would otherwise never clean up.
 *   <li>A missed run is made up once, {@code catchUpDelay} after the start (serving comes first),
 *       then the daily time holds. So a Legio that runs at {@code at} or starts once a day cleans
 *       up at least once a day (plus the delay).
 * </ul>
 *
 * Time is passed in, so the rules are tested without waiting.
 */
public record DailySchedule(LocalTime at, Duration catchUpDelay) {
  /** How long after a start a missed run is made up, unless told otherwise. */
  public static final Duration CATCH_UP_DELAY = Duration.ofMinutes(1);

  public DailySchedule {
    Objects.requireNonNull(at, "at");
    if (catchUpDelay.isNegative()) {
      throw new IllegalArgumentException("the catch-up delay cannot be negative: " + catchUpDelay);
    }
  }

  /** Daily at {@code at} UTC, a missed run made up {@link #CATCH_UP_DELAY} after the start. */
  public static DailySchedule at(LocalTime at) {
    return new DailySchedule(at, CATCH_UP_DELAY);
  }

  /** The time from {@code now} to the next {@code at} (UTC); a full day when {@code now} is it. */
  public Duration untilNext(Instant now) {
    ZonedDateTime utc = now.atZone(ZoneOffset.UTC);
    ZonedDateTime next = utc.with(at);
    if (!next.isAfter(utc)) {
      next = next.plusDays(1);
    }
    return Duration.between(utc, next);
  }

  /** The run due by {@code now}: the last {@code at} (UTC) not after {@code now}. */
  public Instant lastDue(Instant now) {
    ZonedDateTime utc = now.atZone(ZoneOffset.UTC);
    ZonedDateTime due = utc.with(at);
    if (due.isAfter(utc)) {
      due = due.minusDays(1);
    }
    return due.toInstant();
  }

  /**
   * True when the run due by {@code now} was missed: {@code lastCompleted} is empty or before
   * {@link #lastDue}.
   */
  public boolean missed(Instant now, Optional<Instant> lastCompleted) {
    return lastCompleted.isEmpty() || lastCompleted.get().isBefore(lastDue(now));
  }
}
