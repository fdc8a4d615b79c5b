package dev.legio.session;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate between Legio processes that share a store: a turn runs only while this process holds
 * its owner's lease in the {@link SessionStore}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every lease this process takes is taken under one holder id, for {@code leaseDuration} from
 *       the injected {@link Clock}'s now; a lease that ran out (its holder died) is taken over by
 *       the store's rules.
 *   <li>{@link #acquire} tries at once, then every {@link #POLL} (waiting through the injected
 *       {@link Sleeper}) until it gets the lease or {@code wait} has passed on the injected wait
 *       time; a wait of zero or less tries once. An interrupt ends the wait without the lease, with
 *       the thread's interrupt flag set.
 *   <li>A lease is given up by {@link #release} or, at the end of a turn, by {@link #finishTurn} in
 *       the same transaction as the reply and the record. Work that gives its lease up in a {@code
 *       finally} uses {@link #releaseAfter}: a release that fails (the database is down) never
 *       replaces how the work ended. It is added to the work's failure as suppressed and logged
 *       once, in words: the lease frees itself when it runs out ({@code lease_ttl_seconds}), as a
 *       dead node's does, so nothing is left to do.
 *   <li>A turn that failed asks {@link #stillHeldAfter} whether its lease was lost meanwhile: only
 *       a lease still this holder's counts as held, never one taken again after another holder had
 *       it (that holder may have run the session's turn and given the lease back); a store that
 *       cannot tell counts as held, so that a database fault is told as one, not as a lost lease.
 * </ul>
 *
 * <p>Lease renewal (a heartbeat for turns longer than {@code leaseDuration}) and the release of a
 * dead holder's lease belong here, and only here: every lease this process holds is taken by {@link
 * #acquire} or {@link #logAndTryTake} and given up by {@link #release} or {@link #finishTurn}. A
 * heartbeat registers the owner in the first two, extends its lease with {@code
 * store.tryLease(owner, holder, now, leaseDuration)} (the holder extends its own lease) on a
 * schedule, and unregisters it in the last two.
 *
 * <p>Task sessions ({@code dev.legio.task}) take their leases through a gate of their own, with the
 * same rules.
 */
public final class LeaseGate {
  private static final Logger log = LoggerFactory.getLogger(LeaseGate.class);

  /** How often a waiting turn tries the lease again. */
  static final Duration POLL = Duration.ofMillis(50);

  /** Waits; tests pass one that moves a fake clock. */
  @FunctionalInterface
  interface Sleeper {
    Sleeper REAL = duration -> Thread.sleep(duration.toMillis());

    void sleep(Duration duration) throws InterruptedException;
  }

  /**
   * Monotonic time for bounded waits in production ({@link System#nanoTime()}), unaffected by the
   * wall clock and by a test's fake session clock.
   */
  static final InstantSource MONOTONIC = () -> Instant.ofEpochSecond(0, System.nanoTime());

  private final SessionStore store;
  private final String holder;
  private final Duration leaseDuration;
  private final Clock clock;
  private final InstantSource waitTime;
  private final Sleeper sleeper;

  /**
   * A gate whose bounded waits are measured on the monotonic timer and really slept.
   *
   * @param holder the holder every lease of this gate is taken under: one per gate
   * @param leaseDuration how long a lease lasts unless renewed ({@code lease_ttl_seconds})
   * @param clock the time leases are taken at and compared with (the sessions' clock)
   */
  public LeaseGate(SessionStore store, String holder, Duration leaseDuration, Clock clock) {
    this(store, holder, leaseDuration, clock, MONOTONIC, Sleeper.REAL);
  }

  /**
   * @param clock the time leases are taken at and compared with (the sessions' clock)
   * @param waitTime the time bounded waits are measured on
   */
  LeaseGate(
      SessionStore store,
      String holder,
      Duration leaseDuration,
      Clock clock,
      InstantSource waitTime,
      Sleeper sleeper) {
    this.store = store;
    this.holder = holder;
    this.leaseDuration = leaseDuration;
    this.clock = clock;
    this.waitTime = waitTime;
    this.sleeper = sleeper;
  }

  /** Logs {@code message} and tries to take {@code owner}'s lease, in one transaction. */
  SessionStore.LeasedRequest logAndTryTake(MessageLog log, NewMessage message, String owner) {
    return store.appendAndTryLease(log, message, owner, holder, clock.instant(), leaseDuration);
  }

  /** Takes {@code owner}'s lease, waiting up to {@code wait}; false when it could not. */
  public boolean acquire(String owner, Duration wait) {
    Instant deadline = waitTime.instant().plus(wait.isNegative() ? Duration.ZERO : wait);
    while (true) {
      if (store.tryLease(owner, holder, clock.instant(), leaseDuration)) {
        return true;
      }
      if (!waitTime.instant().isBefore(deadline)) {
        return false;
      }
      try {
        sleeper.sleep(POLL);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /**
   * True while this process's holder still holds {@code owner}'s lease (extending it), even one
   * that ran out while no one took it over; false when another holder took it since, whether it
   * holds it still or has given it up after running the session's turn (a paused node must not take
   * for its own failure a turn that another node ran meanwhile). Never takes the lease.
   */
  public boolean stillHeld(String owner) {
    return store.renewLease(owner, holder, clock.instant(), leaseDuration);
  }

  /**
   * {@link #stillHeld} asked by work that failed with {@code failure}: true when the store cannot
   * tell, its failure added to {@code failure} as suppressed (which stays the work's), so that a
   * database fault is never taken for a lost lease.
   */
  public boolean stillHeldAfter(String owner, RuntimeException failure) {
    try {
      return stillHeld(owner);
    } catch (RuntimeException storeFailed) {
      failure.addSuppressed(storeFailed);
      return true;
    }
  }

  /** Gives {@code owner}'s lease up, if this process holds it. */
  public void release(String owner) {
    store.releaseLease(owner, holder);
  }

  /**
   * Gives {@code owner}'s lease up at the end of work that ended with {@code failure} (null: it
   * succeeded), never hiding how the work ended: a release that fails is added to {@code failure}
   * as suppressed, logged once in words, and not thrown. The lease frees itself when it runs out.
   */
  public void releaseAfter(String owner, Throwable failure) {
    try {
      store.releaseLease(owner, holder);
    } catch (RuntimeException e) {
      if (failure != null && failure != e) {
        failure.addSuppressed(e);
      }
      log.warn(
          "{}: the session lease could not be given up ({}); it frees itself within {} s, when it"
              + " runs out ([sessions] lease_ttl_seconds), and until then other nodes wait for this"
              + " session; nothing else needs doing",
          owner,
          e.getMessage(),
          leaseDuration.toSeconds());
    }
  }

  /**
   * Saves {@code record} only while this process's holder holds its owner's lease, checked in the
   * write's transaction; {@link LeaseLostException} otherwise.
   */
  void saveWhileHeld(SessionRecord record) {
    store.saveWhileLeased(record, holder);
  }

  /**
   * Deletes {@code owner}'s record only while this process's holder holds its lease, checked in the
   * delete's transaction; {@link LeaseLostException} otherwise.
   */
  void deleteWhileHeld(String owner) {
    store.deleteWhileLeased(owner, holder);
  }

  /** Ends a turn: logs the reply, saves the record, gives the lease up, in one transaction. */
  Message finishTurn(MessageLog log, NewMessage reply, SessionRecord record) {
    return store.finishTurn(log, reply, record, holder);
  }

  /** The owners whose lease some process holds now. */
  Set<String> leasedOwners() {
    return store.leasedOwners(clock.instant());
  }
}
