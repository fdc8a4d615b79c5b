package dev.legio.app.gateway.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warnings a webhook gateway logs for requests it refuses (no signature, a forged one, a stale
 * timestamp).
 *
 * <p>Rule: at most one line per {@link #EVERY} for each gateway. The first refusal shows at once;
 * those that follow within the minute are counted, and the next line says how many there were, so a
 * flood of forged requests can fill neither the log nor the disk. Each line ends with what to check
 * should the refused requests be the platform's own (a signing secret or public key that is not the
 * app's, a clock that is wrong), since that is the one case an operator must act on.
 */
public final class RefusalLog {
  private static final Logger log = LoggerFactory.getLogger(RefusalLog.class);

  /** The shortest time between two lines of one gateway. */
  public static final Duration EVERY = Duration.ofMinutes(1);

  private final String gateway;
  private final String advice;
  private final Clock clock;
  private Instant lastLine; // guarded by this
  private long unlogged; // guarded by this

  /**
   * @param advice what to check should the refused requests be the platform's own, one sentence,
   *     e.g. {@code "If these are Slack's own requests, check that SLACK_SIGNING_SECRET holds the
   *     app's Signing Secret and that this machine's clock is right."}
   */
  public RefusalLog(String gateway, String advice, Clock clock) {
    this.gateway = gateway;
    this.advice = advice;
    this.clock = clock;
  }

  /** A request was refused because of {@code why} (Legio's own words). */
  public void refused(String why) {
    long before;
    synchronized (this) {
      Instant now = clock.instant();
      if (lastLine != null && now.isBefore(lastLine.plus(EVERY))) {
        unlogged++;
        return;
      }
      lastLine = now;
      before = unlogged;
      unlogged = 0;
    }
    String count = before == 0 ? "" : " (" + before + " more refused since the last such line)";
    log.warn("gateway {}: refused a request: {}{}. {}", gateway, why, count, advice);
  }
}
