package dev.legio.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Bytes read as UTF-8 exactly as Unicode defines it, by the JDK's decoder set to report (never to
 * replace) what is not UTF-8, with where the first bytes that are not stand.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Bytes that are not UTF-8 are {@link Malformed}, never read as the character they imitate:
 *       an overlong form ({@code C0 AF}, a '/' in two bytes), an encoded surrogate (CESU-8, {@code
 *       ED A0 80}), a code point above U+10FFFF ({@code F4 90 80 80}), a sequence cut short (in the
 *       middle or at the end), a byte that starts nothing ({@code 80}, {@code FF}).
 *   <li>{@link Malformed} names the first of them: its byte offset from the start of the input (a
 *       byte order mark left out is counted), and the bytes the JDK's decoder found malformed there
 *       (one to three: {@code C0} of {@code C0 AF}, {@code E2 82} cut at the end), in hexadecimal.
 *   <li>A UTF-8 byte order mark ({@code EF BB BF}) at the start is U+FEFF in the text with {@link
 *       LeadingBom#KEEP} and left out with {@link LeadingBom#SKIP}; anywhere else it is U+FEFF, a
 *       character like any other.
 *   <li>Any other code point, NUL included, is text: what a caller refuses beyond UTF-8 (a NUL, a
 *       body in UTF-16) is its own rule.
 *   <li>Decoded text is exactly the JDK's lenient {@code new String(bytes, UTF_8)} (with {@link
 *       LeadingBom#KEEP}; with {@link LeadingBom#SKIP} less a leading byte order mark): only
 *       refusal is added.
 * </ul>
 */
public final class StrictUtf8 {
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private StrictUtf8() {}

  /** What a UTF-8 byte order mark at the start of the input becomes. */
  public enum LeadingBom {
    /** It is U+FEFF, the first character of the text. */
    KEEP,
    /** It is left out of the text (its bytes still count in a {@link Malformed}'s offset). */
    SKIP
  }

  /** What decoding gave: the text, or where the input stops being UTF-8. */
  public sealed interface Result permits Decoded, Malformed {}

  /** The input was UTF-8: its text. */
  public record Decoded(String text) implements Result {}

  /**
   * The input is not UTF-8 from byte {@code offset} on.
   *
   * @param offset the first malformed byte's offset from the start of the input, from 0
   * @param bytes the malformed bytes there, as the JDK's decoder found them: {@code "0xC0"}, {@code
   *     "0xE2 0x82"}
   */
  public record Malformed(int offset, String bytes) implements Result {}

  /** {@code input} decoded as the class comment says. */
  public static Result decode(byte[] input, LeadingBom bom) {
    int start = bom == LeadingBom.SKIP && startsWithBom(input) ? BOM.length : 0;
    ByteBuffer in = ByteBuffer.wrap(input, start, input.length - start);
    // UTF-8 never gives more chars than bytes, so the text fits: one decoding pass, no growing.
    CharBuffer out = CharBuffer.allocate(input.length - start);
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      int at = in.position();
      return new Malformed(at, hex(input, at, Math.min(result.length(), input.length - at)));
    }
    return new Decoded(out.flip().toString());
  }

  private static boolean startsWithBom(byte[] input) {
    return input.length >= BOM.length
        && input[0] == BOM[0]
        && input[1] == BOM[1]
        && input[2] == BOM[2];
  }

  /** {@code "0xC0 0xAF"}: {@code length} bytes of {@code input} from {@code at}. */
  private static String hex(byte[] input, int at, int length) {
    HexFormat format = HexFormat.of().withUpperCase();
    StringBuilder text = new StringBuilder(5 * length);
    for (int i = at; i < at + length; i++) {
      text.append(i == at ? "0x" : " 0x").append(format.toHexDigits(input[i]));
    }
    return text.toString();
  }
}
