package dev.legio.app.gateway.webhook;

import dev.legio.backend.http.HttpFailure;
import dev.legio.backend.http.RetryPolicy;
import java.time.Duration;

/**
 * Calls to a chat platform's API, retried as {@link RetryPolicy} says: a 429 waits as long as the
 * platform's {@code retry_after} asks (up to {@link #MAX_RETRY_AFTER}), a 5xx, time-out or refused
 * connection is retried with doubling back-off, at most {@link #MAX_RETRIES} times; anything else
 * (a refused token, a bad request) fails at once.
 */
public final class PlatformCalls {
  public static final int MAX_RETRIES = 4;
  public static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

  /** One attempt at a call; throws {@link HttpFailure} when it fails. */
  @FunctionalInterface
  public interface Attempt<T> {
    T run();
  }

  private final RetryPolicy policy;

  public PlatformCalls(RetryPolicy policy) {
    this.policy = policy;
  }

  /**
   * Retries from 0.5 s to 8 s, honouring a retry-after of up to a minute; waits with {@code
   * sleeper}.
   */
  public static PlatformCalls standard(RetryPolicy.Sleeper sleeper) {
    return new PlatformCalls(
        new RetryPolicy(
            MAX_RETRIES, Duration.ofMillis(500), Duration.ofSeconds(8), MAX_RETRY_AFTER, sleeper));
  }

  /** Runs {@code attempt} until it succeeds or the policy gives up (the last failure is thrown). */
  public <T> T call(Attempt<T> attempt) {
    for (int retry = 0; ; retry++) {
      try {
        return attempt.run();
      } catch (HttpFailure failure) {
        Duration delay = policy.delayBefore(retry, failure);
        if (delay == null) {
          throw failure;
        }
        try {
          policy.sleeper().sleep(delay);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw failure;
        }
      }
    }
  }
}
