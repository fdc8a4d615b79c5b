package dev.legio.session;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an edit of one owner's session (a reset, a rewind, a fork onto that owner) while no turn of
 * that owner runs, in this process or in another sharing the store.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The edit waits for the turns this process queued for the owner before it (the owner's
 *       {@link TurnQueue}), then takes the owner's lease ({@link LeaseGate}), so that a turn on
 *       another process ends first; the lease is given up after the edit. An owner this process
 *       holds no slot for (a channel another node serves) has no queue here: its edits take turns
 *       on a lock of this process instead, since this process's lease is its own to take again.
 *   <li>Both waits together last at most {@code [sessions] lock_wait_seconds}, as a request's do;
 *       past that nothing is edited and {@link SessionBusyException} says so.
 *   <li>The edit then waits (up to the same bound) until this process's turn listener has heard of
 *       every turn that ended before it, so that a rewind right after a turn finds that turn in the
 *       transcript.
 *   <li>Hence a turn's end, which writes its session record, never undoes an edit made while it
 *       ran, and two edits of one owner run one after the other, each on what the other left.
 * </ul>
 */
public final class SessionEditGate {
  private static final Logger log = LoggerFactory.getLogger(SessionEditGate.class);

  private final Function<Owner, OwnerSlot> heldSlot;
  private final LeaseGate leases;
  private final Duration lockWait;
  private final Predicate<Duration> turnsTold;
  private final ReentrantLock[] unslotted = new ReentrantLock[64];

  /**
   * @param heldSlot the slot this process holds for an owner, or null when none (a channel it does
   *     not hold)
   */
  SessionEditGate(
      Function<Owner, OwnerSlot> heldSlot,
      LeaseGate leases,
      Duration lockWait,
      Predicate<Duration> turnsTold) {
    this.heldSlot = heldSlot;
    this.leases = leases;
    this.lockWait = lockWait;
    this.turnsTold = turnsTold;
    for (int i = 0; i < unslotted.length; i++) {
      unslotted[i] = new ReentrantLock();
    }
  }

  /**
   * Runs {@code edit} of {@code owner}'s session once no turn of it runs.
   *
   * @throws SessionBusyException when a turn of {@code owner} still ran after {@code lock_wait}
   */
  public <T> T whileNoTurnRuns(String owner, Supplier<T> edit) {
    long start = System.nanoTime();
    OwnerSlot slot = heldSlot.apply(Owner.of(owner));
    if (slot == null) {
      ReentrantLock lock = unslotted[Math.floorMod(owner.hashCode(), unslotted.length)];
      boolean locked;
      try {
        locked = lock.tryLock(lockWait.toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        locked = false;
      }
      if (!locked) {
        throw busy(owner, "another edit of it in this Legio process");
      }
      try {
        return leased(owner, start, edit);
      } finally {
        lock.unlock();
      }
    }
    return slot.queue.run(
        slot.queue.enqueue(),
        lockWait,
        () -> leased(owner, start, edit),
        () -> {
          throw busy(owner, "a turn of it in this Legio process");
        });
  }

  private <T> T leased(String owner, long start, Supplier<T> edit) {
    Duration left = lockWait.minusNanos(System.nanoTime() - start);
    if (!leases.acquire(owner, left)) {
      throw busy(owner, "a turn of it in another Legio process sharing this store");
    }
    try {
      if (!turnsTold.test(lockWait)) {
        log.warn("{}: editing before the turn listener heard of every turn", owner);
      }
      return edit.get();
    } finally {
      leases.release(owner);
    }
  }

  private SessionBusyException busy(String owner, String where) {
    return new SessionBusyException(
        owner,
        owner
            + "'s session is busy: "
            + where
            + " still ran after "
            + lockWait.toSeconds()
            + " s ([sessions] lock_wait_seconds), so nothing was changed. Try again once "
            + owner
            + " has answered.");
  }
}
