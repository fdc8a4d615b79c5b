package dev.legio.task;

/**
 * Legio stopped before the task's turn ended: it was refused as shutting down, or interrupted when
 * the shutdown's grace ran out ({@link TaskSessions#interruptTurns}). No answer was recorded; send
 * the task again, to another node or once Legio is back.
 */
public final class TaskInterruptedException extends RuntimeException
    implements dev.legio.errors.TryAgainLater {
  TaskInterruptedException(String message) {
    super(message);
  }
}
