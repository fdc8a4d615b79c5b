package dev.legio.task;

import dev.legio.errors.Quoted;
import java.time.Duration;

/**
 * The task's turn ran, but its session's lease passed to another Legio node (or process) before the
 * turn could store its answer: this node paused (a long GC, a frozen VM) or lost the database for
 * longer than {@code [sessions] lease_ttl_seconds}, and the other holder took the session over to
 * run a task of its own. Nothing of this turn was stored (the record the other holder wrote
 * stands); its tokens are in the usage ledger with outcome {@code lease_lost}.
 *
 * <p>The lease is found lost by the write of the turn's record, or, when that write failed (the
 * database was out of reach), by the check made after it ({@link TaskTurnEndings}); the write's
 * failure is then this exception's cause.
 *
 * <p>When the model's answer had come before the lease was found lost, it is not thrown away:
 * {@link #reply()} gives it (its tokens are spent, and sending the task again would pay for it
 * twice), and the message says that it is not in the session's history, that another node holds the
 * session now, and that it may have run the task too if it was sent again meanwhile, so to look at
 * the key's task runs before sending it again. When the lease was lost before the answer came,
 * there is no answer ({@link #reply()} is null); task turns are not logged in the praetorium, so
 * the message says to send the task again unless it was.
 */
public final class TaskLeaseLostException extends RuntimeException {
  private final String reply;
  private final String taskRunId;

  /** The lease was lost before the back-end answered: there is no answer. */
  TaskLeaseLostException(String key, String agent, Duration lease, Throwable cause) {
    super(
        takenOver(key, agent, lease)
            + " Nothing of this turn was stored (the session keeps what the other node"
            + " wrote) and its answer is kept nowhere: unless the task was sent again meanwhile,"
            + " send it again",
        cause);
    this.reply = null;
    this.taskRunId = null;
  }

  /** The lease was found lost after the back-end answered {@code reply}, which is given. */
  TaskLeaseLostException(
      String key, String agent, Duration lease, String reply, String taskRunId, Throwable cause) {
    super(
        takenOver(key, agent, lease)
            + " Nothing of this turn was stored (the session keeps what the other node wrote)."
            + " Its answer came before that and is given here (reply), but it is not in the"
            + " session's history: the session's next tasks will not know of it. Use it rather"
            + " than sending the task again, which would run and pay for it twice; if the task was"
            + " sent again meanwhile, the other node may have answered it too (the key's task runs:"
            + " GET /api/v1/usage?by=task-run, legio usage --by task-run)",
        cause);
    this.reply = reply;
    this.taskRunId = taskRunId;
  }

  private static String takenOver(String key, String agent, Duration lease) {
    return "the session of "
        + agent
        + " for key '"
        + Quoted.of(key)
        + "' was taken over by another Legio node (or process) while this node ran the task: this"
        + " node paused or lost the database for longer than [sessions] lease_ttl_seconds ("
        + lease.toSeconds()
        + " s), so its lease ran out and the other node took the session to run a task of its"
        + " own.";
  }

  /** The model's answer, which was not stored; null when the lease was lost before it came. */
  public String reply() {
    return reply;
  }

  /**
   * The task run the answer belongs to, as the caller gave it; null when none was given, or when
   * there is no answer.
   */
  public String taskRunId() {
    return taskRunId;
  }
}
