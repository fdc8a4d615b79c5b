package dev.legio.task;

/**
 * The (key, agent) session stayed busy with earlier tasks for longer than {@code [sessions]
 * lock_wait_seconds}, in this process or another; nothing ran. Send the task again later.
 */
public final class TaskBusyException extends RuntimeException
    implements dev.legio.errors.TryAgainLater {
  TaskBusyException(String message) {
    super(message);
  }
}
