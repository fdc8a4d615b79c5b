package dev.legio.usage;

import java.time.Duration;
import java.time.Instant;

/**
 * How long the usage ledger keeps a turn.
 *
 * <p>Rule: a turn is kept for {@code [usage] keep_days} or for the sessions' longest TTL ({@code
 * [sessions.ttl_days]}), whichever is longer, so a session that may still resume never loses the
 * record of what it cost so far. Older turns are deleted by the daily cleanup.
 *
 * @param keepDays {@code [usage] keep_days}
 * @param longestSessionTtl the longest of the sessions' TTLs
 */
public record UsageRetention(int keepDays, Duration longestSessionTtl) {
  public UsageRetention {
    if (keepDays < 1) {
      throw new IllegalArgumentException("keep_days must be at least 1, got " + keepDays);
    }
  }

  /** How long a turn is kept. */
  public Duration keepFor() {
    Duration days = Duration.ofDays(keepDays);
    return longestSessionTtl.compareTo(days) > 0 ? longestSessionTtl : days;
  }

  /** Turns that ended before this, at {@code now}, are deleted. */
  public Instant cutoff(Instant now) {
    return now.minus(keepFor());
  }
}
