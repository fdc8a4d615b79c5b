package dev.legio.task;

import dev.legio.errors.Quoted;
import java.time.Duration;

/**
 * The task's turn ran, but its session's lease passed to another Legio node before the turn could
 * store its answer: this node paused (a long GC, a frozen VM) or lost the database for longer than
 * {@code [sessions] lease_ttl_seconds}, and the other node took the session over to run a task of
 * its own. Nothing of this turn was stored (the record the other node wrote stands); its tokens are
 * in the usage ledger with outcome {@code lease_lost}. Task turns are not logged in the praetorium,
 * so the answer is kept nowhere: the message says so, and to send the task again unless it was.
 */
public final class TaskLeaseLostException extends RuntimeException {
  TaskLeaseLostException(String key, String agent, Duration lease, Throwable cause) {
    super(
        "the session of "
            + agent
            + " for key '"
            + Quoted.of(key)
            + "' was taken over by another Legio node while this node ran the task: this node"
            + " paused or lost the database for longer than [sessions] lease_ttl_seconds ("
            + lease.toSeconds()
            + " s), so its lease ran out and the other node took the session to run a task of its"
            + " own. Nothing of this turn was stored (the session keeps what the other node"
            + " wrote) and its answer is kept nowhere: unless the task was sent again meanwhile,"
            + " send it again",
        cause);
  }
}
