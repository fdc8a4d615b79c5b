package dev.legio.app.conversation;

/**
 * A client's text as an error may quote it: control characters escaped, at most 80 code points, so
 * that a hostile value cannot forge lines in a terminal or a log.
 */
public final class Printable {
  private Printable() {}

  public static String of(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    s.codePoints()
        .limit(80)
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
    if (s.codePointCount(0, s.length()) > 80) {
      out.append('…');
    }
    return out.toString();
  }
}
