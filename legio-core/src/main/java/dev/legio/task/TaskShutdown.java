package dev.legio.task;

import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How task turns stop when Legio does.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #interruptTurns} (a server calls it when its drain's grace has ended, as it does the
 *       engine's) refuses every task from then on and interrupts each thread running or waiting for
 *       a task turn. What such a turn throws, busy or failed, becomes {@link
 *       TaskInterruptedException}, so that its caller, still connected, hears that Legio stopped
 *       before the answer and that sending the task again is safe. A back-end that answers in spite
 *       of the interrupt still has its answer returned. A task that was waiting never reaches its
 *       back-end, even when the turn before it, interrupted first, hands it the session before its
 *       own interrupt arrives.
 *   <li>The interrupt never outlives the task's turn: it is cleared as the turn leaves, so that the
 *       thread goes on to write the caller's answer.
 *   <li>A task that arrives once stopping has begun is refused with {@link
 *       TaskInterruptedException}; nothing runs.
 * </ul>
 */
final class TaskShutdown {
  private static final Logger log = LoggerFactory.getLogger(TaskShutdown.class);

  /** The threads in a task turn; guarded by itself, as are {@link #closing}'s writes. */
  private final Set<Thread> running = new HashSet<>();

  private volatile boolean closing;

  /** True once stopping has begun. */
  boolean closing() {
    return closing;
  }

  /** True when no task turn runs or waits. */
  boolean idle() {
    synchronized (running) {
      return running.isEmpty();
    }
  }

  /** Refuses every task from now on and interrupts those running or waiting. */
  void interruptTurns() {
    synchronized (running) {
      closing = true;
      if (!running.isEmpty()) {
        log.warn(
            "{} task turn(s) still running when the shutdown's grace ended; interrupting them",
            running.size());
      }
      running.forEach(Thread::interrupt);
    }
  }

  /**
   * Enters a task turn of {@code agent} (leave it with {@link #leave}).
   *
   * @throws TaskInterruptedException when stopping has begun; nothing runs
   */
  void enter(String agent) {
    synchronized (running) {
      if (closing) {
        throw new TaskInterruptedException(
            "Legio is shutting down; the task for "
                + agent
                + " did not run: send it again, to another node or once Legio is back");
      }
      running.add(Thread.currentThread());
    }
  }

  /** Leaves a task turn; an interrupt {@link #interruptTurns} sent it stays behind. */
  void leave() {
    synchronized (running) {
      running.remove(Thread.currentThread());
      if (closing) {
        Thread.interrupted(); // told to the caller already (the exception, or the answer)
      }
    }
  }

  /** What a task turn of {@code agent} that ended with {@code cause} while stopping throws. */
  TaskInterruptedException interrupted(String agent, RuntimeException cause) {
    log.warn("task turn of {} interrupted by shutdown: {}", agent, cause.getMessage());
    TaskInterruptedException e =
        new TaskInterruptedException(
            "Legio shut down before "
                + agent
                + " answered the task; no answer was recorded: send it again, to another node or"
                + " once Legio is back");
    e.initCause(cause);
    return e;
  }
}
