package dev.legio.transcript;

import java.time.Duration;

/**
 * How {@link TranscriptRecorder} keeps the turns of a session whose transcript another process
 * keeps locked past the store's wait, and how often it writes them again.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>At most {@code maxKept} turns are kept per session; past that the oldest are dropped
 *       unwritten (the recorder logs them as an error, counted).
 *   <li>Kept turns are written again {@code firstRetry} after they were kept, then, while the lock
 *       is still held, twice as long after each attempt, at most {@code longestRetry} apart; once
 *       they are written, the next kept turns start again at {@code firstRetry}.
 * </ul>
 *
 * @param maxKept the most turns of one session kept (at least 1)
 * @param firstRetry how long after the turns were kept they are written again (positive)
 * @param longestRetry the longest wait between two attempts (at least {@code firstRetry})
 */
public record KeptTurnsPolicy(int maxKept, Duration firstRetry, Duration longestRetry) {
  /** 1,000 turns a session; written again after 1 s, doubling to 1 min apart. */
  public static final KeptTurnsPolicy DEFAULT =
      new KeptTurnsPolicy(1_000, Duration.ofSeconds(1), Duration.ofMinutes(1));

  public KeptTurnsPolicy {
    if (maxKept < 1) {
      throw new IllegalArgumentException(
          "maxKept must be at least 1 (the most turns kept per session), not " + maxKept);
    }
    if (firstRetry == null || firstRetry.isNegative() || firstRetry.isZero()) {
      throw new IllegalArgumentException(
          "firstRetry must be a positive duration, not " + firstRetry);
    }
    if (longestRetry == null || longestRetry.compareTo(firstRetry) < 0) {
      throw new IllegalArgumentException(
          "longestRetry must be at least firstRetry (" + firstRetry + "), not " + longestRetry);
    }
  }

  /** The wait after an attempt that found the lock still held, the last wait being {@code last}. */
  Duration after(Duration last) {
    Duration doubled = last.multipliedBy(2);
    return doubled.compareTo(longestRetry) > 0 ? longestRetry : doubled;
  }
}
