package dev.legio.session;

import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Runs the work for one session owner one piece at a time, in the order the pieces were queued, on
 * the threads of whoever queued them: a request to an idle agent runs at once on the caller's
 * thread, with no hand-off.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #enqueue()} hands out places in order; {@link #run} waits (uninterruptibly, so that
 *       a place is never skipped or lost) until every earlier place has run, then runs its work.
 *   <li>Each place must be {@link #run} exactly once, or the owner's queue stops.
 *   <li>A place run with a longest wait ({@link #run(Place, Duration, Supplier, Supplier)}) that
 *       has not come by then is given up: its caller gets the late answer at once, and the places
 *       after it still run in order, skipping it.
 *   <li>{@link #interruptAll()} interrupts the threads running or waiting; work sees the flag.
 * </ul>
 */
final class TurnQueue {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition advanced = lock.newCondition();
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
  private long next;
  private long serving;
  private final Set<Long> givenUp = new HashSet<>(); // guarded by lock

  /**
   * A place in the queue.
   *
   * @param queuedSince {@link System#nanoTime()} when the place was taken behind other work, or -1
   *     when the queue was free
   */
  record Place(long number, long queuedSince) {
    /** How long the place has waited behind other work so far, in nanoseconds. */
    long waitedNanos() {
      return queuedSince < 0 ? 0 : System.nanoTime() - queuedSince;
    }
  }

  /** Takes the next place. */
  Place enqueue() {
    lock.lock();
    try {
      long number = next++;
      return new Place(number, number == serving ? -1 : System.nanoTime());
    } finally {
      lock.unlock();
    }
  }

  /** Waits for {@code place}'s turn, runs {@code work} and passes the turn on. */
  <T> T run(Place place, Supplier<T> work) {
    Thread self = Thread.currentThread();
    threads.add(self);
    try {
      lock.lock();
      try {
        while (serving != place.number()) {
          advanced.awaitUninterruptibly();
        }
      } finally {
        lock.unlock();
      }
      return work.get();
    } finally {
      threads.remove(self);
      passOn();
    }
  }

  /**
   * Waits for {@code place}'s turn for at most {@code maxWait} since the place was taken, then runs
   * {@code work} and passes the turn on; when the turn has not come by then, gives the place up and
   * returns what {@code whenLate} gives (or throws).
   */
  <T> T run(Place place, Duration maxWait, Supplier<T> work, Supplier<T> whenLate) {
    Thread self = Thread.currentThread();
    threads.add(self);
    boolean interrupted = false;
    boolean ours = true;
    lock.lock();
    try {
      long from = place.queuedSince() < 0 ? System.nanoTime() : place.queuedSince();
      long deadline = from + Math.max(0, maxWait.toNanos());
      while (serving != place.number()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          givenUp.add(place.number());
          ours = false;
          break;
        }
        try {
          advanced.awaitNanos(left);
        } catch (InterruptedException e) {
          interrupted = true; // kept for the work to see, as run(Place, Supplier) does
        }
      }
    } finally {
      lock.unlock();
    }
    if (interrupted) {
      self.interrupt();
    }
    if (!ours) {
      threads.remove(self);
      return whenLate.get();
    }
    try {
      return work.get();
    } finally {
      threads.remove(self);
      passOn();
    }
  }

  /** The place being served is done: serves the next one not given up. */
  private void passOn() {
    lock.lock();
    try {
      serving++;
      while (givenUp.remove(serving)) {
        serving++;
      }
      advanced.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Runs {@code work} now if nothing is queued; empty when the owner is busy. */
  <T> Optional<T> runIfFree(Supplier<T> work) {
    Place place;
    lock.lock();
    try {
      if (next != serving) {
        return Optional.empty();
      }
      place = new Place(next++, -1);
    } finally {
      lock.unlock();
    }
    return Optional.ofNullable(run(place, work));
  }

  /** Waits up to {@code nanos} for every queued piece of work to finish; true if they did. */
  boolean awaitIdle(long nanos) {
    lock.lock();
    try {
      long left = nanos;
      while (next != serving) {
        if (left <= 0) {
          return false;
        }
        try {
          left = advanced.awaitNanos(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return next == serving;
        }
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Interrupts every thread running or waiting in this queue. */
  void interruptAll() {
    threads.forEach(Thread::interrupt);
  }

  /** True when nothing runs or waits. */
  boolean idle() {
    lock.lock();
    try {
      return next == serving;
    } finally {
      lock.unlock();
    }
  }
}
