package dev.legio.task;

/**
 * The text of a task, checked before its turn runs so that a text no store can keep never reaches
 * the model (whose answer would then be paid for and lost).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Not empty and not only white space.
 *   <li>No NUL (U+0000) and no unpaired surrogate: PostgreSQL cannot store either in a stored
 *       conversation, and the praetorium refuses them in a message for the same reason. The error
 *       names the character and its index (in UTF-16 code units, as a JSON string's index is).
 *   <li>Anything else (any script, tabs, newlines, markup) is kept exactly.
 * </ul>
 */
final class TaskText {
  private TaskText() {}

  /**
   * Returns {@code text} when a task may carry it.
   *
   * @throws TaskRefusedException saying what is wrong and what to do
   */
  static String require(String text, String agent) {
    if (text == null || text.isBlank()) {
      throw new TaskRefusedException("text is empty: give the task's message for " + agent);
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 0) {
        throw new TaskRefusedException(
            "text contains a NUL character (U+0000) at index "
                + i
                + ": remove it; a task's text is stored as text, not binary data");
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new TaskRefusedException(
            String.format(
                "text contains an unpaired surrogate (U+%04X) at index %d: send valid UTF-16"
                    + " (a JSON \\u escape of half a character is not one)",
                (int) c, i));
      }
    }
    return text;
  }
}
