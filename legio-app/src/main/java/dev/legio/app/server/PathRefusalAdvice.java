package dev.legio.app.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What to fix, for each of Jetty's refusals of a path it finds ambiguous or suspicious: its own
 * words ({@code Ambiguous URI path separator}) say what it saw, not what the client should send.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Each refusal Jetty names is followed by what it means in the path and what to send instead
 *       ({@code %2F}: a name cannot hold '/'; {@code //}: remove the doubled slash; {@code %2e%2e}:
 *       no dot segments; {@code %25}: a name cannot hold '%'; a control character or backslash:
 *       never part of a name). Jetty's words stay first, so that a log or a search still finds
 *       them.
 *   <li>Several refusals in one message ({@code Suspicious Path Character, Illegal Path Character})
 *       are each explained once; a message Jetty words otherwise is left as it is.
 * </ul>
 */
final class PathRefusalAdvice {
  private static final Map<String, String> ADVICE =
      Map.of(
          "ambiguous uri path separator",
          "the path holds an encoded '/' (%2F), which could be read as a separator; a name in the"
              + " path cannot hold '/'",
          "ambiguous uri path segment",
          "the path holds an encoded '.' or '..' segment (%2e, %2e%2e); name the resource itself,"
              + " without dot segments",
          "ambiguous uri empty segment",
          "the path holds an empty segment ('//'); remove the doubled '/'",
          "ambiguous uri path encoding",
          "the path holds an encoded '%' (%25), which could be decoded twice; a name in the path"
              + " cannot hold '%'",
          "ambiguous uri path parameter",
          "the path holds a parameter on a dot segment ('..;'); leave the ';' and what follows out",
          "suspicious path character",
          "the path holds a control character or a backslash (%00-%1F, %5C, %7F), never part of a"
              + " name; leave it out",
          "illegal path character",
          "the path holds a character that must be percent-encoded (a backslash, a space, a quote);"
              + " percent-encode it");

  private PathRefusalAdvice() {}

  /**
   * What to fix for Jetty's message {@code said}, one clause per refusal it names; empty when it
   * names none known here.
   */
  static String of(String said) {
    List<String> advice = new ArrayList<>();
    for (String part : said.split(",")) {
      String known = ADVICE.get(part.strip().toLowerCase(java.util.Locale.ROOT));
      if (known != null && !advice.contains(known)) {
        advice.add(known);
      }
    }
    return String.join("; ", advice);
  }
}
