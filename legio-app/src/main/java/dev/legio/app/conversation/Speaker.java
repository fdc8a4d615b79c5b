package dev.legio.app.conversation;

/**
 * Who speaks on a channel, as a gateway tells it (the API's {@code "user": {"id": "42", "name":
 * "Ada"}}, or a chat platform's sender), and how the model learns it: the message logged for the
 * channel starts with one line {@code [from "NAME" (id "ID")]}, then the text exactly as sent.
 *
 * <p>The name and id are cut to 100 characters and their line breaks and other control characters
 * become spaces, so that a hostile name cannot forge a second line; they stand in double quotes,
 * with a {@code "} or {@code \} in them escaped by a backslash, so that a name such as {@code Eve)]
 * [from caesar} cannot end the line's frame early either. The text itself is untouched. Without a
 * user, the text is logged as it is.
 */
public record Speaker(String id, String name) {
  public static final int MAX_CHARS = 100;

  /** Nobody in particular: the text is logged as it is. */
  public static final Speaker NONE = new Speaker(null, null);

  /** The speaker with this id and name (either may be null), cleaned as the rules say. */
  public static Speaker of(String id, String name) {
    return new Speaker(clean(id), clean(name));
  }

  /** The text as logged: the speaker's line, then the text. */
  public String prefix(String text) {
    if (id == null && name == null) {
      return text;
    }
    StringBuilder line = new StringBuilder("[from ");
    if (name == null) {
      line.append("someone");
    } else {
      quoted(name, line);
    }
    if (id != null) {
      quoted(id, line.append(" (id "));
      line.append(')');
    }
    return line.append("]\n").append(text).toString();
  }

  private static void quoted(String value, StringBuilder out) {
    out.append('"');
    value
        .codePoints()
        .forEach(
            cp -> {
              if (cp == '"' || cp == '\\') {
                out.append('\\');
              }
              out.appendCodePoint(cp);
            });
    out.append('"');
  }

  private static String clean(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    value
        .codePoints()
        .limit(MAX_CHARS)
        .forEach(
            cp ->
                out.appendCodePoint(
                    Character.isISOControl(cp)
                            || Character.getType(cp) == Character.LINE_SEPARATOR
                            || Character.getType(cp) == Character.PARAGRAPH_SEPARATOR
                        ? ' '
                        : cp));
    String s = out.toString().strip();
    return s.isEmpty() ? null : s;
  }
}
