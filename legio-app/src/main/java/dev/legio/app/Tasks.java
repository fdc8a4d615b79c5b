package dev.legio.app;

import dev.legio.task.TaskResult;
import dev.legio.task.TaskSessionSummary;
import dev.legio.task.TaskSessions;
import java.util.List;
import java.util.function.Supplier;

/**
 * Task sessions from Java ({@link Legio#tasks()}): the calls of {@code POST /api/v1/tasks} and
 * {@code GET /api/v1/tasks/sessions}, with the same rules ({@link TaskSessions}).
 */
public final class Tasks {
  private final Supplier<TaskSessions> service;

  Tasks(Supplier<TaskSessions> service) {
    this.service = service;
  }

  /**
   * Runs {@code text} as the next turn of the (session key, agent) session: resumed when it has not
   * expired, else new. Waits while earlier tasks of the same session run (one at a time, in order).
   *
   * @param sessionKey 1-200 printable characters of the caller's choice ({@code campaign:7f3c})
   * @param agent a centurio ({@code castra/centuriones/NAME/prompt.md})
   * @param text the task's message
   * @param taskRunId the caller's id of the task run, recorded with the turn; may be null
   * @throws dev.legio.task.TaskRefusedException bad key, unknown agent (lists the agents), empty
   *     text
   * @throws dev.legio.task.TaskBusyException the session stayed busy past {@code lock_wait_seconds}
   * @throws dev.legio.task.TaskFailedException the back-end failed the turn (nothing was stored)
   * @throws dev.legio.task.TaskLeaseLostException another node took the session over while this one
   *     ran the turn (it paused past {@code lease_ttl_seconds}): nothing was stored; its {@code
   *     reply()} is the model's answer when it had come (not in the session's history), else null
   * @throws dev.legio.task.TaskNotStoredException the model answered but Legio's database failed to
   *     store the session, and the session is still this node's (or that could not be told): its
   *     {@code reply()} is the answer. When the store failed and another node had taken the session
   *     over meanwhile, {@code TaskLeaseLostException} with the answer is thrown instead
   * @throws dev.legio.task.TaskInterruptedException Legio is shutting down: the task did not run,
   *     or was interrupted past the shutdown's grace (nothing was stored)
   */
  public TaskResult run(String sessionKey, String agent, String text, String taskRunId) {
    return service.get().run(sessionKey, agent, text, taskRunId);
  }

  /** As {@link #run(String, String, String, String)} without a task run id. */
  public TaskResult run(String sessionKey, String agent, String text) {
    return run(sessionKey, agent, text, null);
  }

  /**
   * Deletes the task sessions whose time to live ({@code [sessions.ttl_days]}) ran out, with the
   * conversations Legio stored for them; returns how many. A {@code legio serve} on the same
   * database does this daily at {@code [sessions] cleanup_at}; a platform that only embeds Legio
   * calls it from its own scheduler (once a day is enough: an expired session is never resumed
   * meanwhile, only kept).
   */
  public int deleteExpired() {
    return service.get().deleteExpired();
  }

  /**
   * Closes the live back-end processes of task sessions idle longer than {@code
   * session_idle_timeout_minutes} in this process (their conversations stay resumable); returns how
   * many. For a platform that only embeds Legio, every few minutes.
   */
  public int closeIdle() {
    return service.get().closeIdle();
  }

  /** The sessions of {@code sessionKey}, each with its totals from the usage ledger. */
  public List<TaskSessionSummary> sessions(String sessionKey) {
    return service.get().sessionsOf(sessionKey);
  }
}
