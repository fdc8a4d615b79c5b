package dev.legio.app.text;

import dev.legio.log.Message;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Messages as people read them in a terminal. */
public final class MessageFormat {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private MessageFormat() {}

  /**
   * {@code #12 2026-02-15 12:00:00Z caesar → vorenus, pullo (re #11)} then the text, indented.
   * Control characters are shown as {@code \\uXXXX} so that a message cannot drive the terminal.
   */
  public static String human(Message m) {
    StringBuilder out = new StringBuilder();
    out.append('#').append(m.sequence()).append("  ").append(TIME.format(m.timestamp()));
    out.append("  ")
        .append(m.sender())
        .append(" → ")
        .append(String.join(", ", m.audience().names()));
    if (m.replyTo() != null) {
      out.append("  (reply to ").append(m.replyTo()).append(')');
    }
    out.append("\n  id ").append(m.id()).append('\n');
    for (String line : m.text().split("\n", -1)) {
      out.append("    ").append(safe(line)).append('\n');
    }
    return out.toString();
  }

  /** Text for the terminal: control characters (other than line feed and tab) made visible. */
  public static String safeText(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (String line : text.split("\n", -1)) {
      if (!out.isEmpty()) {
        out.append('\n');
      }
      out.append(safe(line));
    }
    return out.toString();
  }

  private static String safe(String line) {
    StringBuilder out = new StringBuilder(line.length());
    line.codePoints()
        .forEach(
            cp -> {
              if (cp == '\t' || !(Character.isISOControl(cp) || cp == 0x2028 || cp == 0x2029)) {
                out.appendCodePoint(cp);
              } else {
                out.append(String.format("\\u%04x", cp));
              }
            });
    return out.toString();
  }
}
