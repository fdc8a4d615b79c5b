package dev.legio.app.gateway.telegram;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Markdown code fence line, as the splitter and the HTML renderer both read it: up to three
 * spaces, a run of 3 to 16 backticks or tildes, then an optional info string (up to 32 characters,
 * no backtick) naming the language. A fence opened by a run closes at a line holding a run of the
 * same character at least as long, and nothing else. Longer runs or info strings are plain text.
 *
 * @param marker the run ({@code ```})
 * @param info the info string, stripped; empty when none
 */
record Fence(String marker, String info) {
  private static final Pattern LINE = Pattern.compile("^ {0,3}(`{3,16}|~{3,16})([^`\\n]{0,32})$");

  /** The fence {@code line} opens, or null when it is not a fence line. */
  static Fence opening(String line) {
    Matcher m = LINE.matcher(line);
    return m.matches() ? new Fence(m.group(1), m.group(2).strip()) : null;
  }

  /** Whether {@code line} closes this fence. */
  boolean closedBy(String line) {
    String s = line.strip();
    if (s.length() < marker.length() || line.length() - line.stripLeading().length() > 3) {
      return false;
    }
    char c = marker.charAt(0);
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) != c) {
        return false;
      }
    }
    return true;
  }

  /** The line that reopens this fence in a new message. */
  String openLine() {
    return info.isEmpty() ? marker : marker + info;
  }

  /** The line that closes it. */
  String closeLine() {
    return marker;
  }

  /** The language for {@code <code class="language-...">}: letters, digits, {@code + - _ #}. */
  String language() {
    String word = info.isEmpty() ? "" : info.split("\\s+")[0];
    return word.matches("[A-Za-z0-9+_#-]{1,20}") ? word : "";
  }
}
