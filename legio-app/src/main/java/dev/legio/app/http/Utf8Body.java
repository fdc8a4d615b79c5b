package dev.legio.app.http;

import dev.legio.text.StrictUtf8;

/**
 * A request body's bytes read as UTF-8 text, exactly as Unicode defines UTF-8 ({@link
 * dev.legio.text.StrictUtf8}), before any JSON is parsed from them: the API's bodies and MCP's
 * alike, each answering {@link NotUtf8} in its own error shape (the API a 400 {@code {"error"}},
 * MCP a 400 with JSON-RPC's parse error).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Bytes that are not UTF-8 are refused ({@link NotUtf8}) naming the byte offset and the
 *       bytes, and saying to send the body in UTF-8: an overlong form ({@code C0 AF}, a '/' in two
 *       bytes), an encoded surrogate (CESU-8, {@code ED A0 80}), a code point above U+10FFFF, a
 *       sequence cut short, a byte that starts nothing ({@code FF}). None is ever read as the
 *       character it imitates (the JSON parser alone would read {@code C0 AF} as '/' and a CESU-8
 *       pair as its emoji), so a body is refused exactly where a query or path with the same bytes
 *       is ({@code server.PercentEncoding}).
 *   <li>A body in UTF-16 or UTF-32 (a byte order mark {@code FE FF} or {@code FF FE}, or a NUL
 *       among its first four bytes, which JSON text in UTF-8 never holds) is refused saying so,
 *       never guessed and read (the JSON parser alone would), as Legio reads UTF-8 only.
 *   <li>A UTF-8 byte order mark at the start is skipped, as RFC 8259 lets a parser do.
 * </ul>
 */
public final class Utf8Body {
  private Utf8Body() {}

  /**
   * Whether {@code body} is ASCII without a NUL: UTF-8 as it stands, so it needs no decoding check
   * (most bodies; the JSON parser reads their bytes directly, without a copy as text).
   */
  public static boolean isPlainAscii(byte[] body) {
    for (byte b : body) {
      if (b <= 0) {
        return false;
      }
    }
    return true;
  }

  /** A body that is not UTF-8: its message says where and what to send instead. */
  public static final class NotUtf8 extends RuntimeException {
    private NotUtf8(String message) {
      super(message, null, false, false);
    }
  }

  /** The text {@code body} holds; {@link NotUtf8} when it is not UTF-8. */
  public static String text(byte[] body) {
    if (isPlainAscii(body)) {
      return new String(body, java.nio.charset.StandardCharsets.US_ASCII);
    }
    if (wide(body)) {
      throw new NotUtf8(
          "the body is in UTF-16 or UTF-32; send the body in UTF-8 (Legio reads no other"
              + " encoding)");
    }
    return switch (StrictUtf8.decode(body, StrictUtf8.LeadingBom.SKIP)) {
      case StrictUtf8.Decoded d -> d.text();
      case StrictUtf8.Malformed m ->
          throw new NotUtf8(
              "the body is not UTF-8 at byte offset "
                  + m.offset()
                  + " ("
                  + m.bytes()
                  + "): an overlong form, an encoded surrogate, a code point above U+10FFFF or a"
                  + " cut sequence is not read as text; send the body in UTF-8");
    };
  }

  /** A UTF-16 or UTF-32 body: its byte order mark, or a NUL among its first four bytes. */
  private static boolean wide(byte[] body) {
    if (body.length >= 2
        && ((body[0] == (byte) 0xFE && body[1] == (byte) 0xFF)
            || (body[0] == (byte) 0xFF && body[1] == (byte) 0xFE))) {
      return true;
    }
    for (int i = 0; i < Math.min(4, body.length); i++) {
      if (body[i] == 0) {
        return true;
      }
    }
    return false;
  }
}
