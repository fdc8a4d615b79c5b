package dev.legio.app.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What to fix, for each 400 Jetty makes itself: its own words ({@code Ambiguous URI path
 * separator}, {@code Multiple Content-Lengths}) say what it saw, not what the client should send.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Each refusal Jetty names is followed by what it means and what to send instead. A path it
 *       finds ambiguous or suspicious: {@code %2F} (a name cannot hold '/'), {@code //} (remove the
 *       doubled slash), {@code %2e%2e} (no dot segments), {@code %25} (a name cannot hold '%'),
 *       {@code ..;} (leave the parameter out), a control character or a backslash (never part of a
 *       name), a character to percent-encode. A header it refuses: {@code Multiple Content-Lengths}
 *       (send one Content-Length), {@code Duplicate Host Header} (send one Host header), {@code
 *       Authority!=Host} (an absolute URL in the request line naming another host than the Host
 *       header: send a Host header that matches it), {@code Invalid Content-Length Value} (send the
 *       body's length in digits, once), {@code No Host} (an HTTP/1.1 request without a Host header:
 *       send one). A character it refuses: {@code Illegal character CNTL=0x..} (remove control
 *       characters from header values; in the URL, percent-encode them), another {@code Illegal
 *       character} (a space in a header's name: remove it). A request line's target that is no host
 *       and port, {@code Bad Authority} (a {@code CONNECT /path}, or an absolute URL whose port is
 *       not digits): a {@code CONNECT} is not served here, and which methods are.
 *   <li>Jetty's words stay first, so that a log or a search still finds them.
 *   <li>Jetty reports some refusals as no more than {@code Bad Request}, with its words on the
 *       parser's failure behind it ({@code Bad Authority}): those words are taken when they are
 *       known here, and no other text of that failure is shown ({@link #behind}).
 *   <li>Several refusals in one message ({@code Suspicious Path Character, Illegal Path Character})
 *       are each explained once, in their order. Each is matched whole, ignoring case, except an
 *       {@code Illegal character}, matched by its start since the character follows; a message
 *       Jetty words otherwise is left as it is.
 * </ul>
 */
final class JettyRefusalAdvice {
  /** What to fix, by Jetty's words in lower case. */
  private static final Map<String, String> ADVICE =
      Map.ofEntries(
          // A path Jetty finds ambiguous or suspicious.
          Map.entry(
              "ambiguous uri path separator",
              "the path holds an encoded '/' (%2F), which could be read as a separator; a name in"
                  + " the path cannot hold '/'"),
          Map.entry(
              "ambiguous uri path segment",
              "the path holds an encoded '.' or '..' segment (%2e, %2e%2e); name the resource"
                  + " itself, without dot segments"),
          Map.entry(
              "ambiguous uri empty segment",
              "the path holds an empty segment ('//'); remove the doubled '/'"),
          Map.entry(
              "ambiguous uri path encoding",
              "the path holds an encoded '%' (%25), which could be decoded twice; a name in the"
                  + " path cannot hold '%'"),
          Map.entry(
              "ambiguous uri path parameter",
              "the path holds a parameter on a dot segment ('..;'); leave the ';' and what follows"
                  + " out"),
          Map.entry(
              "suspicious path character",
              "the path holds a control character or a backslash (%00-%1F, %5C, %7F), never part"
                  + " of a name; leave it out"),
          Map.entry(
              "illegal path character",
              "the path holds a character that must be percent-encoded (a backslash, a space, a"
                  + " quote); percent-encode it"),
          // A header Jetty refuses.
          Map.entry(
              "multiple content-lengths",
              "the request holds more than one Content-Length header, which could frame its body in"
                  + " two ways; send one Content-Length"),
          Map.entry(
              "duplicate host header",
              "the request holds more than one Host header; send one Host header"),
          Map.entry(
              "invalid content-length value",
              "the request's Content-Length is not one whole number of bytes; send the body's"
                  + " length in bytes as digits only (0-9), once"),
          Map.entry(
              "no host",
              "an HTTP/1.1 request must carry a Host header; send one naming the server's host and"
                  + " port, as in the URL (Host: 127.0.0.1:8080)"),
          Map.entry(
              "authority!=host",
              "the request line's absolute URL names another host than its Host header; send a"
                  + " Host header that matches the request's authority (or only the path in the"
                  + " request line)"),
          // A request line's target Jetty cannot read as a host and port.
          Map.entry(
              "bad authority",
              "the request line names no host and port that can be read: a CONNECT (which names"
                  + " host:port, not a path) is not served here, this server tunnels nothing, so"
                  + " send GET, HEAD, POST or DELETE with a path (GET /api/v1/openapi.json lists"
                  + " the API); in an absolute URL, write the port in digits or send only the"
                  + " path"));

  /** The start of Jetty's refusal of a byte it does not allow where it stands. */
  private static final String ILLEGAL_CHARACTER = "illegal character ";

  private static final String CONTROL_CHARACTER =
      "the request line or a header holds a control character (0x00-0x1F, 0x7F), which HTTP does"
          + " not allow there; remove control characters from header values (in the URL,"
          + " percent-encode them)";

  private static final String OTHER_CHARACTER =
      "the request line or a header holds a character HTTP does not allow there (a space or a"
          + " separator in a header's name); remove it from the header's name";

  private JettyRefusalAdvice() {}

  /**
   * What to fix for Jetty's message {@code said}, one clause per refusal it names; empty when it
   * names none known here.
   */
  static String of(String said) {
    List<String> advice = new ArrayList<>();
    for (String part : said.split(",")) {
      String known = adviceFor(part.strip().toLowerCase(Locale.ROOT));
      if (known != null && !advice.contains(known)) {
        advice.add(known);
      }
    }
    return String.join("; ", advice);
  }

  /**
   * Jetty's words for a refusal it reports as no more than its status ({@code Bad Request}): the
   * message of the parser's failure behind it, when that is one known here ({@code Bad Authority});
   * empty otherwise, so that no other text of an exception is shown.
   */
  static String behind(Object failure) {
    if (failure instanceof Throwable refusal
        && refusal.getCause() != null
        && refusal.getCause().getMessage() instanceof String words
        && adviceFor(words.strip().toLowerCase(Locale.ROOT)) != null) {
      return words.strip();
    }
    return "";
  }

  /** What to fix for one refusal, in lower case; null when it is not one known here. */
  private static String adviceFor(String refusal) {
    if (refusal.startsWith(ILLEGAL_CHARACTER)) {
      return refusal.startsWith(ILLEGAL_CHARACTER + "cntl=") ? CONTROL_CHARACTER : OTHER_CHARACTER;
    }
    return ADVICE.get(refusal);
  }
}
