package dev.legio.task;

import dev.legio.errors.Quoted;

/**
 * The task's turn ran and the model answered, but Legio's database failed while the task's session
 * was stored: the session's record stays as it was before the turn (its tokens and expiry did not
 * move on), and the turn is in the usage ledger as failed, with the tokens it spent.
 *
 * <p>Thrown only while the session's lease is still this process's, or when that cannot be told
 * (the database is still down): when the lease was found passed to another node after the write
 * failed, {@link TaskLeaseLostException} is thrown instead, with the answer ({@link
 * TaskTurnEndings}).
 *
 * <p>The answer is not thrown away: {@link #reply()} gives it, since its tokens are spent and
 * sending the task again would pay for it twice. The message says what happened, that the answer is
 * given with it, and that sending the task again is needed only if the answer is not wanted.
 */
public final class TaskNotStoredException extends RuntimeException {
  private final String reply;
  private final String taskRunId;

  TaskNotStoredException(
      String key, String agent, String reply, String taskRunId, Throwable cause) {
    super(
        agent
            + " answered the task, but Legio's database failed while the session for key '"
            + Quoted.of(key)
            + "' was stored ("
            + cause.getMessage()
            + "), so the session did not record this turn (the log file says why). The answer is"
            + " given here (reply): use it rather than sending the task again, which would run"
            + " and pay for it twice",
        cause);
    this.reply = reply;
    this.taskRunId = taskRunId;
  }

  /** The model's answer, which was not stored. */
  public String reply() {
    return reply;
  }

  /** The task run the answer belongs to, as the caller gave it (null when none was given). */
  public String taskRunId() {
    return taskRunId;
  }
}
