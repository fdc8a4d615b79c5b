package dev.legio.errors;

/**
 * Someone else's text (a client's value, a name from a file, a platform's user name) as an error
 * message or a log line may quote it: control characters, line and paragraph separators, lone
 * surrogates and invisible format characters (such as the right-to-left override) are written as
 * escapes of their code point (a backslash, {@code u} and four hex digits; {@code u{...}} beyond
 * the Basic Multilingual Plane), so that a hostile value cannot forge a line, reorder what a
 * terminal shows or hide characters; and it is cut at a length with an ellipsis, so that a value
 * cannot flood the message. Every other character, letters of any script and emoji among them, is
 * shown as it is.
 */
public final class Quoted {
  /** The length a quoted value is cut at. */
  public static final int VALUE_LIMIT = 80;

  /**
   * The length a whole message is cut at (an exception's, which may quote a value and says what to
   * fix at its end, so that the advice is never the part cut off).
   */
  public static final int MESSAGE_LIMIT = 2_000;

  private Quoted() {}

  /** {@code text} escaped and cut at {@link #VALUE_LIMIT} code points; "" for null. */
  public static String of(String text) {
    return of(text, VALUE_LIMIT);
  }

  /** A whole message, escaped and cut at {@link #MESSAGE_LIMIT} code points. */
  public static String message(String text) {
    return of(text, MESSAGE_LIMIT);
  }

  private static String of(String text, int limit) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    text.codePoints().limit(limit).forEach(cp -> append(cp, out));
    if (text.codePointCount(0, text.length()) > limit) {
      out.append('…');
    }
    return out.toString();
  }

  private static void append(int cp, StringBuilder out) {
    int type = Character.getType(cp);
    boolean hidden =
        Character.isISOControl(cp)
            || type == Character.SURROGATE
            || type == Character.FORMAT
            || type == Character.LINE_SEPARATOR
            || type == Character.PARAGRAPH_SEPARATOR;
    if (!hidden) {
      out.appendCodePoint(cp);
    } else if (cp <= 0xFFFF) {
      out.append(String.format("\\u%04x", cp));
    } else {
      out.append(String.format("\\u{%x}", cp));
    }
  }
}
