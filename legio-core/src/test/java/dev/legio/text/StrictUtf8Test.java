package dev.legio.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.text.StrictUtf8.Decoded;
import dev.legio.text.StrictUtf8.LeadingBom;
import dev.legio.text.StrictUtf8.Malformed;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * UTF-8 as Unicode defines it: what is not UTF-8 is refused with where and what, never read as the
 * character it imitates; what is UTF-8 reads exactly as the JDK's lenient decoding reads it.
 */
class StrictUtf8Test {
  /** {@code "61 C0 AF"} as bytes. */
  private static byte[] bytes(String hex) {
    return HexFormat.ofDelimiter(" ").parseHex(hex);
  }

  private static StrictUtf8.Result decode(String hex) {
    return StrictUtf8.decode(bytes(hex), LeadingBom.KEEP);
  }

  @Test
  void anOverlongFormIsRefusedNotReadAsTheCharacterItImitates() {
    assertThat(decode("61 C0 AF")).isEqualTo(new Malformed(1, "0xC0")); // '/' in two bytes
    assertThat(decode("61 62 E0 80 AF")).isEqualTo(new Malformed(2, "0xE0")); // '/' in three
    assertThat(decode("F0 80 80 AF")).isEqualTo(new Malformed(0, "0xF0")); // '/' in four
  }

  @Test
  void anEncodedSurrogatePairCesu8IsRefusedNotReadAsItsEmoji() {
    assertThat(decode("61 ED A0 BD ED B8 80")).isEqualTo(new Malformed(1, "0xED 0xA0 0xBD"));
    assertThat(decode("ED B8 80")).isEqualTo(new Malformed(0, "0xED 0xB8 0x80"));
  }

  @Test
  void aCodePointAboveU10FFFFIsRefused() {
    assertThat(decode("F4 90 80 80")).isEqualTo(new Malformed(0, "0xF4"));
    assertThat(decode("F8 88 80 80 80")).isEqualTo(new Malformed(0, "0xF8"));
  }

  @Test
  void aSequenceCutShortIsRefusedAtItsStartAtTheEndOrInTheMiddle() {
    assertThat(decode("23 20 E2 82")).isEqualTo(new Malformed(2, "0xE2 0x82"));
    assertThat(decode("61 F0 9F 98")).isEqualTo(new Malformed(1, "0xF0 0x9F 0x98"));
    assertThat(decode("61 C3")).isEqualTo(new Malformed(1, "0xC3"));
    assertThat(decode("E2 28 A1")).isEqualTo(new Malformed(0, "0xE2"));
  }

  @Test
  void aByteThatStartsNothingIsRefused() {
    assertThat(decode("61 80")).isEqualTo(new Malformed(1, "0x80"));
    assertThat(decode("FF FE 61 00")).isEqualTo(new Malformed(0, "0xFF"));
    assertThat(decode("63 61 66 E9 0A")).isEqualTo(new Malformed(3, "0xE9")); // Latin-1 é
  }

  @Test
  void utf8BeyondAsciiNulAndAReplacementCharacterAsSentAreText() {
    String text = "César \u2014 \uD83C\uDFDB \u0000 \uFFFD";
    assertThat(StrictUtf8.decode(text.getBytes(StandardCharsets.UTF_8), LeadingBom.KEEP))
        .isEqualTo(new Decoded(text));
    assertThat(StrictUtf8.decode(new byte[0], LeadingBom.SKIP)).isEqualTo(new Decoded(""));
  }

  @Test
  void aByteOrderMarkAtTheStartIsKeptOrLeftOutAsTheCallerAsks() {
    assertThat(StrictUtf8.decode(bytes("EF BB BF 61"), LeadingBom.KEEP))
        .isEqualTo(new Decoded("\uFEFFa"));
    assertThat(StrictUtf8.decode(bytes("EF BB BF 61"), LeadingBom.SKIP))
        .isEqualTo(new Decoded("a"));
    assertThat(StrictUtf8.decode(bytes("EF BB BF"), LeadingBom.SKIP)).isEqualTo(new Decoded(""));
    // Only one, and only at the start: a second one, or one later, is U+FEFF.
    assertThat(StrictUtf8.decode(bytes("EF BB BF EF BB BF"), LeadingBom.SKIP))
        .isEqualTo(new Decoded("\uFEFF"));
    assertThat(StrictUtf8.decode(bytes("61 EF BB BF"), LeadingBom.SKIP))
        .isEqualTo(new Decoded("a\uFEFF"));
    // Half a mark is not one: refused where it stops.
    assertThat(StrictUtf8.decode(bytes("EF BB 61"), LeadingBom.SKIP))
        .isEqualTo(new Malformed(0, "0xEF 0xBB"));
  }

  @Test
  void aMalformedOffsetCountsTheByteOrderMarkLeftOut() {
    assertThat(StrictUtf8.decode(bytes("EF BB BF 61 FF"), LeadingBom.SKIP))
        .isEqualTo(new Malformed(4, "0xFF"));
    assertThat(StrictUtf8.decode(bytes("EF BB BF 61 FF"), LeadingBom.KEEP))
        .isEqualTo(new Malformed(4, "0xFF"));
  }

  @Test
  void lineAndColumnCountLinesFromOneAndColumnsInBytes() {
    byte[] text = "a = 1\r\nb = \u00e9\u00e9x\n".getBytes(StandardCharsets.UTF_8);
    assertThat(LineAndColumn.of(text, 0)).isEqualTo(new LineAndColumn(1, 1));
    assertThat(LineAndColumn.of(text, 5)).isEqualTo(new LineAndColumn(1, 6)); // the \r
    assertThat(LineAndColumn.of(text, 7)).isEqualTo(new LineAndColumn(2, 1));
    assertThat(LineAndColumn.of(text, 15)).isEqualTo(new LineAndColumn(2, 9)); // x, after é é
  }

  @Property(tries = 1000)
  void everyWellFormedStringRoundTrips(@ForAll("wellFormed") String text) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    assertThat(StrictUtf8.decode(utf8, LeadingBom.KEEP)).isEqualTo(new Decoded(text));
    assertThat(StrictUtf8.decode(utf8, LeadingBom.SKIP))
        .isEqualTo(new Decoded(text.startsWith("\uFEFF") ? text.substring(1) : text));
  }

  @Property(tries = 1000)
  void anyBytesReadAsTheJdksLenientDecodingDoesOrAreRefusedWhereItWouldReplace(
      @ForAll("utf8AndNot") byte[] input) {
    String lenient = new String(input, StandardCharsets.UTF_8);
    boolean utf8 = Arrays.equals(lenient.getBytes(StandardCharsets.UTF_8), input);
    StrictUtf8.Result result = StrictUtf8.decode(input, LeadingBom.KEEP);
    if (utf8) {
      assertThat(result).isEqualTo(new Decoded(lenient));
      return;
    }
    assertThat(result).isInstanceOf(Malformed.class);
    Malformed malformed = (Malformed) result;
    // Everything before the offset is UTF-8, read as the lenient decoding reads it.
    byte[] before = Arrays.copyOf(input, malformed.offset());
    assertThat(StrictUtf8.decode(before, LeadingBom.KEEP)).isInstanceOf(Decoded.class);
    String beforeText = ((Decoded) StrictUtf8.decode(before, LeadingBom.KEEP)).text();
    assertThat(lenient).startsWith(beforeText);
    // ... and there the lenient decoding puts its U+FFFD.
    assertThat(lenient.charAt(beforeText.length())).isEqualTo('\uFFFD');
    assertThat(malformed.bytes())
        .startsWith(String.format("0x%02X", input[malformed.offset()] & 0xFF));
  }

  @Provide
  Arbitrary<String> wellFormed() {
    Arbitrary<Integer> codePoint =
        Arbitraries.oneOf(
            Arbitraries.integers().between(0, 0x7F),
            Arbitraries.integers().between(0x80, 0xFFFF),
            Arbitraries.integers().between(0x10000, 0x10FFFF),
            Arbitraries.of(0xFEFF, 0xFFFD, 0xD7FF, 0xE000, 0xFFFF, 0x10FFFF, 0));
    return codePoint
        .filter(c -> c < 0xD800 || c > 0xDFFF)
        .list()
        .ofMaxSize(40)
        .map(
            points -> {
              StringBuilder text = new StringBuilder();
              points.forEach(text::appendCodePoint);
              return text.toString();
            });
  }

  /** Runs of UTF-8 with stray bytes among them: lead bytes cut short, continuations, C0, ED A0. */
  @Provide
  Arbitrary<byte[]> utf8AndNot() {
    Arbitrary<byte[]> valid = wellFormed().map(s -> s.getBytes(StandardCharsets.UTF_8));
    Arbitrary<byte[]> stray =
        Arbitraries.oneOf(
            Arbitraries.bytes().map(b -> new byte[] {b}),
            Arbitraries.of(
                bytes("C0 AF"),
                bytes("ED A0 80"),
                bytes("ED B0 80"),
                bytes("F4 90 80 80"),
                bytes("E2 82"),
                bytes("F0 9F 98"),
                bytes("EF BB BF"),
                bytes("80"),
                bytes("FF")));
    return Arbitraries.frequencyOf(Tuple.of(3, valid), Tuple.of(1, stray))
        .list()
        .ofMaxSize(8)
        .map(StrictUtf8Test::concat);
  }

  private static byte[] concat(List<byte[]> parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    parts.forEach(out::writeBytes);
    return out.toByteArray();
  }
}
