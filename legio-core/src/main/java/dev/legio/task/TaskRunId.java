package dev.legio.task;

/**
 * The caller's id of a task run ({@code run-41}), recorded with the turn in the usage ledger and
 * shown by {@code legio usage --by task-run}.
 *
 * <p>Rules: absent (null), or 1 to 200 characters, every one printable by {@link SessionKey}'s rule
 * (no control characters such as NUL or escape, no unpaired surrogates, no unassigned or format
 * code points). A NUL would make PostgreSQL refuse the ledger's row, so the turn would run and its
 * usage be lost; an escape would reach the operator's terminal.
 */
final class TaskRunId {
  static final int MAX_LENGTH = 200;

  private TaskRunId() {}

  /**
   * Returns {@code id} (null when absent) when it is a valid task run id.
   *
   * @throws TaskRefusedException saying what is wrong with it
   */
  static String require(String id) {
    if (id == null) {
      return null;
    }
    int length = id.codePointCount(0, id.length());
    if (id.isBlank() || length > MAX_LENGTH) {
      throw new TaskRefusedException(
          "task_run_id must be 1-" + MAX_LENGTH + " characters, or left out");
    }
    int[] points = id.codePoints().toArray();
    for (int i = 0; i < points.length; i++) {
      if (!SessionKey.printable(points[i])) {
        throw new TaskRefusedException(
            String.format(
                "task_run_id holds a character that is not printable (U+%04X at position %d);"
                    + " use printable characters only, e.g. \"run-41\"",
                points[i], i + 1));
      }
    }
    return id;
  }
}
