package dev.legio.app.server;

import dev.legio.errors.Quoted;
import dev.legio.text.StrictUtf8;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * A request's query as the API reads it: UTF-8, percent-encoded.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@code %XX} is the byte XX; the bytes must make UTF-8 ({@code %C3%A9} is é), as {@link
 *       dev.legio.text.StrictUtf8} reads it (a byte order mark, {@code %EF%BB%BF}, is U+FEFF). A
 *       {@code %} not followed by two hexadecimal digits (a lone {@code %}, {@code 50%}) or bytes
 *       that are not UTF-8 ({@code %ff}, half a character {@code %C3}) are a 400 that names what
 *       holds them (the query parameter, when its name can be read, or the path) and says how to
 *       send it: never a bare "Bad Request", nor a character silently replaced by U+FFFD.
 *   <li>The two digits after {@code %} are ASCII ({@code 0-9 a-f A-F}): a digit of another script
 *       (Arabic-Indic {@code ٣}, a fullwidth {@code Ａ}) is refused as any other non-digit is.
 *   <li>A character sent as it is, not percent-encoded (Jetty reads a request line's bytes as
 *       UTF-8), is itself, whatever its code point: one beyond U+FFFF (an emoji) included.
 *   <li>In a query, {@code +} is a space (as a form sends it); in a path it is itself.
 * </ul>
 */
final class PercentEncoding {
  private PercentEncoding() {}

  /** What to send instead, for every refusal. */
  static final String HOW =
      "send it as UTF-8, percent-encoded (é as %C3%A9, a space as %20, '%' itself as %25)";

  /**
   * {@code raw} decoded; a 400 saying that {@code what} ({@code "query parameter 'viewer'"}, {@code
   * "the path"}) is not UTF-8, percent-encoded, when it is not.
   */
  static String decode(String raw, String what) {
    if (raw.indexOf('%') < 0 && raw.indexOf('+') < 0) {
      return raw;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        if (i + 2 >= raw.length()
            || !HexFormat.isHexDigit(raw.charAt(i + 1))
            || !HexFormat.isHexDigit(raw.charAt(i + 2))) {
          throw ApiException.badRequest(
              what
                  + " ('"
                  + Quoted.of(raw)
                  + "') has a '%' not followed by two hexadecimal digits; "
                  + HOW);
        }
        bytes.write(HexFormat.fromHexDigits(raw, i + 1, i + 3));
        i += 2;
      } else if (c == '+') {
        bytes.write(' ');
      } else {
        // The whole run up to the next '%' or '+', so a character beyond U+FFFF (two chars) is
        // encoded whole, never as two halves ('?' each).
        int end = i + 1;
        while (end < raw.length() && raw.charAt(end) != '%' && raw.charAt(end) != '+') {
          end++;
        }
        bytes.writeBytes(raw.substring(i, end).getBytes(StandardCharsets.UTF_8));
        i = end - 1;
      }
    }
    return switch (StrictUtf8.decode(bytes.toByteArray(), StrictUtf8.LeadingBom.KEEP)) {
      case StrictUtf8.Decoded d -> d.text();
      case StrictUtf8.Malformed m ->
          throw ApiException.badRequest(
              what + " ('" + Quoted.of(raw) + "') is not UTF-8, percent-encoded; " + HOW);
    };
  }
}
