package dev.legio.session;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the engine still takes messages, and how it stops.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Posting a request holds the read side of a lock from its check to its queue place ({@link
 *       #startPosting}, {@link #endPosting}); stopping takes the write side, so that no request is
 *       logged once stopping has begun, and one logged before it has its queue place.
 *   <li>{@link #interruptTurns} stops taking messages and interrupts every turn running or waiting:
 *       each is answered, and recorded, as interrupted by the shutdown. A server calls it when its
 *       drain's grace has ended, while its callers' connections are still open to hear so.
 *   <li>{@link #close} stops taking messages, lets the turns in flight finish for up to {@code
 *       shutdown_grace_seconds} (then interrupts them, and waits at most {@link #INTERRUPTED} for
 *       each owner's), closes every live session (the centuriones', the legatus's, the channels'),
 *       then runs what the engine closes after them. Once only.
 * </ul>
 */
final class EngineShutdown {
  private static final Logger log = LoggerFactory.getLogger(EngineShutdown.class);

  /** How long an owner's interrupted turns may take to answer. */
  static final Duration INTERRUPTED = Duration.ofSeconds(5);

  private final ReentrantReadWriteLock opening = new ReentrantReadWriteLock();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final OwnerSlots slots;
  private final SessionLifecycle lifecycle;
  private final Duration grace;
  private volatile boolean closing;

  EngineShutdown(OwnerSlots slots, SessionLifecycle lifecycle, Duration grace) {
    this.slots = slots;
    this.lifecycle = lifecycle;
    this.grace = grace;
  }

  /** True once stopping has begun: no message is taken. */
  boolean closing() {
    return closing;
  }

  /**
   * Begins posting a request (end it with {@link #endPosting}).
   *
   * @throws IllegalStateException when the engine is stopping; nothing was logged
   */
  void startPosting() {
    opening.readLock().lock();
    if (closing) {
      opening.readLock().unlock();
      throw new IllegalStateException("Legio is shutting down; the message was not sent");
    }
  }

  /** Ends what {@link #startPosting} began. */
  void endPosting() {
    opening.readLock().unlock();
  }

  /** True when no turn runs or waits for any owner. */
  boolean idle() {
    for (OwnerSlot slot : slots.inClosingOrder()) {
      if (!slot.queue.idle()) {
        return false;
      }
    }
    return true;
  }

  /** Stops taking messages and interrupts every turn running or waiting. */
  void interruptTurns() {
    stopTaking();
    for (OwnerSlot slot : slots.inClosingOrder()) {
      if (!slot.queue.idle()) {
        log.warn(
            "{}: turn still running when the shutdown's grace ended; interrupting it", slot.name());
        slot.queue.interruptAll();
      }
    }
  }

  /** Stops the engine (see the class comment); {@code after} runs once the sessions are closed. */
  void close(Runnable after) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    stopTaking();
    List<OwnerSlot> order = slots.inClosingOrder();
    long deadline = System.nanoTime() + grace.toNanos();
    for (OwnerSlot slot : order) {
      if (!slot.queue.awaitIdle(Math.max(0, deadline - System.nanoTime()))) {
        log.warn("{}: dispatch still running at shutdown; interrupting it", slot.name());
        slot.queue.interruptAll();
        slot.queue.awaitIdle(INTERRUPTED.toNanos());
      }
      lifecycle.closeLive(slot);
    }
    after.run();
    log.info("session engine stopped: {} sessions closed", order.size());
  }

  private void stopTaking() {
    opening.writeLock().lock();
    try {
      closing = true;
    } finally {
      opening.writeLock().unlock();
    }
  }
}
