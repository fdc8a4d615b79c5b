package dev.legio.backend.http;

import java.time.Duration;
import java.util.Objects;

/**
 * When to try a failed request again: connection failures, time-outs, 429 and 5xx are retried up to
 * {@code maxRetries} times, waiting {@code initialDelay} doubled on each retry (at most {@code
 * maxDelay}), or as long as the server's {@code retry-after} asks. A server asking for longer than
 * {@code maxRetryAfter} is not waited for: the turn fails and says when to try again.
 *
 * @param sleeper how waiting is done (tests pass one that records and returns at once)
 */
public record RetryPolicy(
    int maxRetries,
    Duration initialDelay,
    Duration maxDelay,
    Duration maxRetryAfter,
    Sleeper sleeper) {

  /** Waits. */
  @FunctionalInterface
  public interface Sleeper {
    Sleeper REAL = duration -> Thread.sleep(duration.toMillis());

    void sleep(Duration duration) throws InterruptedException;
  }

  public RetryPolicy {
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be 0 or more, not " + maxRetries);
    }
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    Objects.requireNonNull(maxRetryAfter, "maxRetryAfter");
    Objects.requireNonNull(sleeper, "sleeper");
  }

  /** {@code maxRetries} retries from 1 s to 30 s, honouring a retry-after of up to 2 minutes. */
  public static RetryPolicy standard(int maxRetries) {
    return new RetryPolicy(
        maxRetries,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        Duration.ofMinutes(2),
        Sleeper.REAL);
  }

  public RetryPolicy withSleeper(Sleeper other) {
    return new RetryPolicy(maxRetries, initialDelay, maxDelay, maxRetryAfter, other);
  }

  /**
   * How long to wait before retry number {@code retry} (0 for the first), or null when the failure
   * must not be retried.
   */
  public Duration delayBefore(int retry, HttpFailure failure) {
    if (!failure.kind().retryable() || retry >= maxRetries) {
      return null;
    }
    if (failure.retryAfter() != null) {
      return failure.retryAfter().compareTo(maxRetryAfter) > 0 ? null : failure.retryAfter();
    }
    Duration delay = initialDelay.multipliedBy(1L << Math.min(retry, 20));
    return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
  }
}
