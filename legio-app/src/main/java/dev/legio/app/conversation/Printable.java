package dev.legio.app.conversation;

/**
 * A client's text as an error may quote it: control characters escaped, so that a hostile value
 * cannot forge lines in a terminal or a log. A quoted value is cut at 80 code points; a whole
 * message of Legio's (which quotes values of its own and says what to fix at its end) at 2,000, so
 * that the advice is never the part cut off.
 */
public final class Printable {
  private static final int VALUE_LIMIT = 80;
  private static final int MESSAGE_LIMIT = 2_000;

  private Printable() {}

  /** A client's value, escaped and cut at 80 code points. */
  public static String of(String s) {
    return escaped(s, VALUE_LIMIT);
  }

  /** A whole error message (an exception's, which may quote a client's value), escaped. */
  public static String message(String s) {
    return escaped(s, MESSAGE_LIMIT);
  }

  private static String escaped(String s, int limit) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    s.codePoints()
        .limit(limit)
        .forEach(
            cp -> {
              if (Character.isISOControl(cp)
                  || Character.getType(cp) == Character.SURROGATE
                  || Character.getType(cp) == Character.FORMAT) {
                out.append(String.format("\\u%04x", cp));
              } else {
                out.appendCodePoint(cp);
              }
            });
    if (s.codePointCount(0, s.length()) > limit) {
      out.append('…');
    }
    return out.toString();
  }
}
