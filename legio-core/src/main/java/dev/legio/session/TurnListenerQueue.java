package dev.legio.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the {@link TurnListener} about turns off the turns' path: one thread, in the order the
 * turns ended.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The turns that ended while the listener was busy are told together: the completed turns in
 *       a row as one {@link TurnListener#turnsCompleted} call (a failed turn ends the run, keeping
 *       the order), so a listener that writes them together keeps up with the turns.
 *   <li>At most {@code capacity} turns wait. A turn that finds the queue full waits for room: a
 *       listener slower than the turns slows them down, instead of holding a backlog in memory that
 *       grows for as long as the load lasts (and that the garbage collector copies again and
 *       again).
 *   <li>What the listener throws is logged; the next turns are still told.
 *   <li>{@link #close} tells what is queued, waiting up to a grace period; a turn that arrives
 *       after that is told on its own thread.
 *   <li>{@link #awaitTold} waits until every turn queued so far has been told (the transcript of a
 *       turn that ended is written), so that an edit of a session sees its last turn.
 * </ul>
 */
final class TurnListenerQueue implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TurnListenerQueue.class);

  /** Turns that may wait to be told. */
  static final int DEFAULT_CAPACITY = 4_096;

  /** The most turns told in one call. */
  static final int MAX_BATCH = 256;

  private final TurnListener listener;
  private final BlockingQueue<Object> queue;
  private final Thread thread;
  private volatile boolean closing;
  private final ReentrantReadWriteLock open = new ReentrantReadWriteLock();
  private final AtomicLong queued = new AtomicLong();
  private final ReentrantLock progress = new ReentrantLock();
  private final Condition toldMore = progress.newCondition();
  private long told; // guarded by progress

  /** The end of the queue, put by {@link #close}. */
  private static final Object END = new Object();

  TurnListenerQueue(TurnListener listener, int capacity) {
    this.listener = listener;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.thread = Thread.ofVirtual().name("legio-turn-listener").start(this::run);
  }

  void completed(CompletedTurn turn) {
    tell(turn);
  }

  void failed(FailedTurn turn) {
    tell(turn);
  }

  private void tell(Object turn) {
    // Read side: turns being queued; write side: close, so that none lands after the end.
    open.readLock().lock();
    try {
      if (!closing) {
        queued.incrementAndGet();
        queue.put(turn); // waits while the queue is full
        return;
      }
    } catch (InterruptedException e) {
      queued.decrementAndGet(); // not queued after all
      Thread.currentThread().interrupt();
    } finally {
      open.readLock().unlock();
    }
    // Closed (or interrupted): tell it here, on the turn's own thread.
    tellNow(List.of(turn));
  }

  private void run() {
    List<Object> batch = new ArrayList<>(MAX_BATCH);
    try {
      while (true) {
        Object first = queue.take();
        if (first == END) {
          return;
        }
        batch.add(first);
        queue.drainTo(batch, MAX_BATCH - 1);
        boolean end = batch.remove(END);
        tellNow(batch);
        toldOf(batch.size());
        batch.clear();
        if (end) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void toldOf(int turns) {
    progress.lock();
    try {
      told += turns;
      toldMore.signalAll();
    } finally {
      progress.unlock();
    }
  }

  /** Waits up to {@code max} until every turn queued before this call has been told; true if so. */
  boolean awaitTold(Duration max) {
    long ticket = queued.get();
    long left = max.toNanos();
    progress.lock();
    try {
      while (told < ticket && !closing) {
        if (left <= 0) {
          return false;
        }
        left = toldMore.awaitNanos(left);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      progress.unlock();
    }
  }

  /** Tells {@code turns} in order: runs of completed turns together, failed ones one by one. */
  private void tellNow(List<Object> turns) {
    List<CompletedTurn> run = new ArrayList<>();
    for (Object turn : turns) {
      if (turn instanceof CompletedTurn completed) {
        run.add(completed);
      } else if (turn instanceof FailedTurn failed) {
        tellCompleted(run);
        run.clear();
        try {
          listener.turnFailed(failed);
        } catch (RuntimeException e) {
          log.warn("{}: the turn listener failed", failed.owner(), e);
        }
      }
    }
    tellCompleted(run);
  }

  private void tellCompleted(List<CompletedTurn> run) {
    if (run.isEmpty()) {
      return;
    }
    try {
      if (run.size() == 1) {
        listener.turnCompleted(run.get(0));
      } else {
        listener.turnsCompleted(List.copyOf(run));
      }
    } catch (RuntimeException e) {
      log.warn(
          "{}: the turn listener failed (the turn itself succeeded)",
          run.size() == 1 ? run.get(0).owner() : run.size() + " turns",
          e);
    }
  }

  /** Tells what is queued, waiting up to {@code grace}; later turns are told on their thread. */
  void close(Duration grace) {
    open.writeLock().lock();
    try {
      if (closing) {
        return;
      }
      closing = true;
    } finally {
      open.writeLock().unlock();
    }
    try {
      queue.put(END);
      if (!thread.join(grace)) {
        log.warn("the turn listener (transcripts) did not finish within the shutdown grace");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }
}
