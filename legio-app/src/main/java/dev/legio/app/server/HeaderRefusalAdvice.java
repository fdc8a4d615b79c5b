package dev.legio.app.server;

import java.util.Locale;
import java.util.Map;

/**
 * What to fix, for each of Jetty's refusals of a request's headers (or of a character in its
 * request line): its own words ({@code Multiple Content-Lengths}, {@code Illegal character
 * CNTL=0x1}) say what it saw, not what the client should send. The sibling of {@link
 * PathRefusalAdvice}, which does the same for a path.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Each refusal Jetty names is followed by what it means and what to send instead: {@code
 *       Multiple Content-Lengths}: send one Content-Length; {@code Duplicate Host Header}: send one
 *       Host header; {@code Authority!=Host} (an absolute URL in the request line naming another
 *       host than the Host header): send a Host header that matches the request's authority; {@code
 *       Illegal character CNTL=0x..}: remove control characters from header values (and from the
 *       URL, where they are percent-encoded); another {@code Illegal character} (a space in a
 *       header's name): remove it. Jetty's words stay first, so that a log or a search still finds
 *       them.
 *   <li>Jetty's message is matched whole (an {@code Illegal character} by its start, since the
 *       character follows); a message Jetty words otherwise is left as it is.
 * </ul>
 */
final class HeaderRefusalAdvice {
  private static final Map<String, String> ADVICE =
      Map.of(
          "multiple content-lengths",
          "the request holds more than one Content-Length header, which could frame its body in"
              + " two ways; send one Content-Length",
          "duplicate host header",
          "the request holds more than one Host header; send one Host header",
          "authority!=host",
          "the request line's absolute URL names another host than its Host header; send a Host"
              + " header that matches the request's authority (or only the path in the request"
              + " line)");

  /** The start of Jetty's refusal of a byte it does not allow where it stands. */
  private static final String ILLEGAL_CHARACTER = "illegal character ";

  private static final String CONTROL_CHARACTER =
      "the request line or a header holds a control character (0x00-0x1F, 0x7F), which HTTP does"
          + " not allow there; remove control characters from header values (in the URL,"
          + " percent-encode them)";

  private static final String OTHER_CHARACTER =
      "the request line or a header holds a character HTTP does not allow there (a space or a"
          + " separator in a header's name); remove it from the header's name";

  private HeaderRefusalAdvice() {}

  /** What to fix for Jetty's message {@code said}; empty when it is not one known here. */
  static String of(String said) {
    String message = said.strip().toLowerCase(Locale.ROOT);
    if (message.startsWith(ILLEGAL_CHARACTER)) {
      return message.startsWith(ILLEGAL_CHARACTER + "cntl=") ? CONTROL_CHARACTER : OTHER_CHARACTER;
    }
    return ADVICE.getOrDefault(message, "");
  }
}
