package dev.legio.app.http;

import dev.legio.errors.Quoted;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A request header's value as an error message quotes it, in the characters the client wrote.
 *
 * <p>Jetty reads a header's bytes as ISO-8859-1, one character per byte, so a value a client sent
 * in UTF-8 ({@code ключ}) would be quoted as mojibake ({@code ÐºÐ»Ñ...}). Rules:
 *
 * <ul>
 *   <li>A value whose bytes are valid UTF-8 is quoted as that UTF-8 text.
 *   <li>Any other value (bytes that are not UTF-8, such as a Latin-1 {@code é} alone) is quoted as
 *       Jetty read it.
 *   <li>Either way through {@link Quoted}: control and invisible characters escaped, cut at its
 *       length.
 * </ul>
 */
public final class HeaderText {
  private HeaderText() {}

  /** {@code value}, a header's value as Jetty read it, quoted for an error message. */
  public static String quoted(String value) {
    if (value == null
        || value.chars().allMatch(c -> c < 0x80)
        || value.chars().anyMatch(c -> c > 0xFF)) {
      return Quoted.of(value);
    }
    try {
      return Quoted.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(value.getBytes(StandardCharsets.ISO_8859_1)))
              .toString());
    } catch (CharacterCodingException e) {
      return Quoted.of(value);
    }
  }
}
