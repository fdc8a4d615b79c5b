package dev.legio.task;

import dev.legio.log.StorableText;

/**
 * The text of a task, checked before its turn runs so that a text no store can keep never reaches
 * the model (whose answer would then be paid for and lost).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Not empty and not only white space.
 *   <li>Only what a store can keep ({@link StorableText}): no NUL (U+0000) and no unpaired
 *       surrogate, which PostgreSQL cannot store in a stored conversation and the praetorium
 *       refuses in a message. The error names the character and its index.
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
    int bad = StorableText.firstUnstorable(text);
    if (bad >= 0) {
      throw new TaskRefusedException(
          "text contains "
              + StorableText.describe(text, bad)
              + (text.charAt(bad) == 0
                  ? ": remove it; a task's text is stored as text, not binary data"
                  : ": send valid UTF-16 (a JSON \\u escape of half a character is not one)"));
    }
    return text;
  }
}
