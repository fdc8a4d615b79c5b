package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Who speaks on a channel, as a gateway tells it ({@code "user": {"id": "42", "name": "Ada"}}), and
 * how the model learns it: the message logged for the channel starts with one line {@code [from
 * NAME (id ID)]}, then the text exactly as sent.
 *
 * <p>The name and id are cut to 100 characters and their line breaks and other control characters
 * become spaces, so that a hostile name cannot forge a second line; the text itself is untouched.
 * Without a user, the text is logged as it is.
 */
record Speaker(String id, String name) {
  static final int MAX_CHARS = 100;
  static final Speaker NONE = new Speaker(null, null);

  static Speaker of(JsonNode user) {
    if (user == null) {
      return NONE;
    }
    return new Speaker(
        clean(Bodies.optionalString(user, "id", "user.id")),
        clean(Bodies.optionalString(user, "name", "user.name")));
  }

  /** The text as logged: the speaker's line, then the text. */
  String prefix(String text) {
    if (id == null && name == null) {
      return text;
    }
    StringBuilder line = new StringBuilder("[from ");
    line.append(name == null ? "someone" : name);
    if (id != null) {
      line.append(" (id ").append(id).append(')');
    }
    return line.append("]\n").append(text).toString();
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
