package dev.legio.longterm;

import java.util.Locale;
import java.util.Objects;

/**
 * One durable fact for an agent's {@code MEMORY.md}: {@code - [category] text (confidence 0.90)}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The text is one line: every run of white space (line breaks of any kind included) becomes
 *       one space, control and format characters are dropped, and it is stripped. So a fact can
 *       never start a line of its own, and so never forge a heading, a section or another fact. At
 *       most {@value #MAX_TEXT_LENGTH} characters are kept.
 *   <li>A text that is empty after that is refused ({@link IllegalArgumentException}).
 *   <li>The confidence is a finite number from 0 to 1; anything else is refused. It is written with
 *       two decimals.
 * </ul>
 *
 * @param category what kind of fact it is
 * @param text the fact, normalised as above
 * @param confidence how sure the model was, 0 to 1
 */
public record ExtractedFact(FactCategory category, String text, double confidence) {
  public static final int MAX_TEXT_LENGTH = 500;

  public ExtractedFact {
    Objects.requireNonNull(category, "category");
    text = oneLine(Objects.requireNonNull(text, "text"));
    if (text.isEmpty()) {
      throw new IllegalArgumentException("a fact's text is empty");
    }
    if (!Double.isFinite(confidence) || confidence < 0 || confidence > 1) {
      throw new IllegalArgumentException(
          "a fact's confidence must be from 0 to 1; got " + confidence);
    }
  }

  /** The fact as a line of {@code MEMORY.md}, without the line break. */
  public String line() {
    return "- ["
        + category.label()
        + "] "
        + text
        + " (confidence "
        + String.format(Locale.ROOT, "%.2f", confidence)
        + ")";
  }

  /**
   * What makes two facts the same for de-duplication: the category and the text, case and white
   * space ignored.
   */
  public String key() {
    return category.label() + "\u0000" + text.toLowerCase(Locale.ROOT);
  }

  /** {@code text} as one line: white space collapsed, controls dropped, length capped. */
  static String oneLine(String text) {
    StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_TEXT_LENGTH + 1));
    boolean space = false;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == 0x85) {
        space = !out.isEmpty();
        continue;
      }
      int type = Character.getType(cp);
      if (type == Character.CONTROL
          || type == Character.FORMAT
          || type == Character.SURROGATE
          || type == Character.UNASSIGNED
          || type == Character.PRIVATE_USE) {
        continue;
      }
      if (space) {
        out.append(' ');
        space = false;
      }
      if (out.length() >= MAX_TEXT_LENGTH) {
        break;
      }
      out.appendCodePoint(cp);
    }
    return out.toString().strip();
  }
}
