package dev.legio.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes the sessions this process holds that have been idle too long.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A session is idle when this process holds it live and its last activity is longer ago than
 *       the timeout (exactly the timeout is not idle yet). Time is the injected clock's.
 *   <li>A session with a turn running or queued is not idle: it is left alone, not waited for.
 *   <li>What closing means is the caller's: the engine marks an agent's session closed, or with
 *       {@code [sessions] resume_after_idle} only stops its back-end process (the conversation is
 *       resumed by the next turn).
 *   <li>A failure closing one session is logged and the others are still reaped.
 * </ul>
 */
final class IdleReaper {
  private static final Logger log = LoggerFactory.getLogger(IdleReaper.class);

  /** Closes one idle session; true when an active session was closed. */
  @FunctionalInterface
  interface Closer {
    boolean close(OwnerSlot slot);
  }

  private final Clock clock;
  private final Closer closer;

  IdleReaper(Clock clock, Closer closer) {
    this.clock = clock;
    this.closer = closer;
  }

  /** Reaps the idle ones of {@code slots}; returns how many sessions were closed. */
  int reap(Collection<OwnerSlot> slots, Duration timeout) {
    Instant now = clock.instant();
    int closed = 0;
    for (OwnerSlot slot : slots) {
      try {
        if (slot.queue
            .runIfFree(() -> idle(slot, now, timeout) && closer.close(slot))
            .orElse(false)) {
          closed++;
        }
      } catch (RuntimeException e) {
        log.warn("{}: closing an idle session failed", slot.name(), e);
      }
    }
    return closed;
  }

  /** True when {@code slot} holds a live session idle for longer than {@code timeout}. */
  static boolean idle(OwnerSlot slot, Instant now, Duration timeout) {
    return slot.live != null
        && slot.record != null
        && Duration.between(slot.record.lastActiveAt(), now).compareTo(timeout) > 0;
  }
}
