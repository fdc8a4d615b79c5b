package dev.legio.app.gateway.webhook;

import dev.legio.backend.http.HttpFailure;
import dev.legio.backend.http.RetryPolicy;
import java.time.Duration;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks on a background virtual thread that a gateway reaches its platform with valid credentials,
 * until it does.
 *
 * <p>Rules: a platform that cannot be reached (refused connection, time-out, 5xx, 429) leaves the
 * gateway {@code waiting}; one that refuses the credentials (or any other 4xx) leaves it {@code
 * failing}; either way it says why (in the words {@code describe} gives, never a secret) and tries
 * again after a back-off doubling from {@code first} to {@code max}. Success makes it {@code
 * connected} and ends the check. Legio serves everything else meanwhile.
 */
public final class ConnectionCheck implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConnectionCheck.class);

  private final GatewayStatus status;
  private final Runnable check;
  private final Function<HttpFailure, String> describe;
  private final Duration first;
  private final Duration max;
  private final RetryPolicy.Sleeper sleeper;
  private volatile Thread thread;
  private volatile boolean closed;

  /**
   * @param check reaches the platform; throws {@link HttpFailure} when it cannot
   * @param describe what a user reads for a failure
   */
  public ConnectionCheck(
      GatewayStatus status,
      Runnable check,
      Function<HttpFailure, String> describe,
      Duration first,
      Duration max,
      RetryPolicy.Sleeper sleeper) {
    this.status = status;
    this.check = check;
    this.describe = describe;
    this.first = first;
    this.max = max;
    this.sleeper = sleeper;
  }

  /** Starts checking in the background; returns at once. */
  public synchronized void start(String threadName) {
    if (thread == null && !closed) {
      thread = Thread.ofVirtual().name(threadName).start(this::loop);
    }
  }

  private void loop() {
    Duration delay = first;
    while (!closed) {
      try {
        check.run();
        status.connected();
        return;
      } catch (HttpFailure f) {
        String why = describe.apply(f);
        boolean reachable =
            f.kind() == HttpFailure.Kind.AUTH || f.kind() == HttpFailure.Kind.REQUEST;
        if (reachable) {
          status.failing(why);
        } else {
          status.waiting(why + "; trying again in " + delay.toSeconds() + " s");
        }
        log.warn("{}", status.health().detail());
      }
      try {
        sleeper.sleep(delay);
      } catch (InterruptedException e) {
        return;
      }
      delay = delay.multipliedBy(2).compareTo(max) > 0 ? max : delay.multipliedBy(2);
    }
  }

  @Override
  public void close() {
    closed = true;
    Thread t = thread;
    if (t != null) {
      t.interrupt();
    }
  }
}
