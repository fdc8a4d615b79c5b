package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The line scanner's fast path against the exact one: both must agree on every line. */
class TranscriptScannerTest {

  private static Transcript load(String... lines) {
    byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    return TranscriptScanner.load(
        "s", List.of(new TranscriptScanner.Part("test", bytes, bytes.length)));
  }

  @Test
  void bracketsAndQuotesInsideStringsDoNotCount() {
    Transcript t =
        load(
            "{\"type\":\"user\",\"uuid\":\"a\",\"message\":{\"content\":\"}]{[ \\\" \\\\\"}}",
            "{\"message\":{\"content\":\"\\\"uuid\\\":\\\"fake\\\"\",\"uuid\":\"inner\"},"
                + "\"type\":\"assistant\",\"uuid\":\"b\",\"parentUuid\":\"a\"}");
    assertThat(t.entries()).extracting(TranscriptEntry::uuid).containsExactly("a", "b");
    assertThat(t.entries().get(1).parentUuid()).isEqualTo("a");
    assertThat(t.entries().get(0).text()).isEqualTo("}]{[ \" \\");
    assertThat(t.report().malformedLines()).isZero();
  }

  @Test
  void anEscapeInAKeptFieldIsDecodedExactly() {
    Transcript t = load("{\"type\":\"user\",\"uuid\":\"u\\u0031\\\"x\",\"message\":{}}");
    assertThat(t.entries()).extracting(TranscriptEntry::uuid).containsExactly("u1\"x");
  }

  @Test
  void mismatchedOrUnclosedBracketsAndTrailingBytesAreMalformed() {
    Transcript t =
        load(
            "{\"type\":\"user\",\"uuid\":\"1\",\"message\":{\"content\":[}]}",
            "{\"type\":\"user\",\"uuid\":\"2\",\"message\":{\"content\":\"x\"}",
            "{\"type\":\"user\",\"uuid\":\"3\"} trailing",
            "{\"type\":\"user\",\"uuid\":\"4\",\"message\":{\"content\":\"unclosed}}",
            "{\"type\":\"user\",\"uuid\":\"5\",\"message\":@}",
            "{\"type\":\"user\",\"uuid\":\"ok\",\"message\":{\"content\":[1,-2.5e3,true,null]}}");
    assertThat(t.entries()).extracting(TranscriptEntry::uuid).containsExactly("ok");
    assertThat(t.report().malformedLines()).isEqualTo(5);
  }

  @Test
  void deepNestingGoesToTheExactParser() {
    String deep = "[".repeat(100) + "]".repeat(100);
    String broken = "[".repeat(100) + "]".repeat(99) + "}";
    Transcript t =
        load(
            "{\"type\":\"user\",\"uuid\":\"deep\",\"message\":{\"x\":" + deep + "}}",
            "{\"type\":\"user\",\"uuid\":\"broken\",\"message\":{\"x\":" + broken + "}}");
    assertThat(t.entries()).extracting(TranscriptEntry::uuid).containsExactly("deep");
    assertThat(t.report().malformedLines()).isEqualTo(1);
  }

  @Test
  void longStringsWithEscapesAtEveryOffsetAreSkippedWhole() {
    // The string skipper reads eight bytes at a time: escapes and quotes at each offset.
    for (int offset = 0; offset < 17; offset++) {
      String text = "a".repeat(offset) + "\\\"" + "b".repeat(20) + "\\\\" + "c".repeat(offset);
      Transcript t =
          load("{\"type\":\"user\",\"uuid\":\"u\",\"message\":{\"content\":\"" + text + "\"}}");
      assertThat(t.entries()).as("offset %d", offset).hasSize(1);
      assertThat(t.entries().get(0).text())
          .isEqualTo("a".repeat(offset) + "\"" + "b".repeat(20) + "\\" + "c".repeat(offset));
    }
  }

  private static Transcript loadBytes(byte[]... lines) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] line : lines) {
      out.writeBytes(line);
      out.write('\n');
    }
    byte[] bytes = out.toByteArray();
    return TranscriptScanner.load(
        "s", List.of(new TranscriptScanner.Part("test", bytes, bytes.length)));
  }

  private static byte[] line(String uuid, String before, int[] raw, String after) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.writeBytes(
        ("{\"type\":\"user\",\"uuid\":\"" + uuid + "\",\"message\":{\"content\":\"" + before)
            .getBytes(StandardCharsets.UTF_8));
    for (int b : raw) {
      out.write(b);
    }
    out.writeBytes((after + "\"}}").getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  @Test
  void aLineHoldingBytesThatAreNotUtf8IsMalformedAndTheOthersAreRead() {
    // At several offsets, so that the bad byte falls in and out of the eight-byte steps.
    for (int offset = 0; offset < 12; offset++) {
      String pad = "x".repeat(offset);
      Transcript t =
          loadBytes(
              line("a", "caf", new int[] {0xC3, 0xA9}, pad), // é in UTF-8
              line("latin1", "caf", new int[] {0xE9}, pad), // é in Latin-1
              line("ff", pad, new int[] {0xFF}, ""),
              line("cut", pad, new int[] {0xF0, 0x9F, 0x98}, ""),
              line("lone", pad, new int[] {0x80}, "z"),
              line("escaped", pad + "\\", new int[] {0xC3, 0xA9}, ""),
              line("b", pad, new int[] {0xF0, 0x9F, 0x98, 0x80}, pad)); // an emoji
      assertThat(t.entries())
          .as("offset %d", offset)
          .extracting(TranscriptEntry::uuid)
          .containsExactly("a", "b");
      assertThat(t.report().malformedLines()).as("offset %d", offset).isEqualTo(5);
      assertThat(t.entries().get(0).text()).isEqualTo("café" + pad);
    }
  }

  @Test
  void aLineThatIsNotJsonIsSkippedAndCountedNeverAnEntryThatFailsWhenRead() {
    // Balanced and UTF-8, so a scan for brackets alone took each of these; reading the entry's
    // body then failed, and with it `sessions show`, `fork`, `rewind` and `chat --resume`.
    String[] broken = {
      "{\"type\":\"user\",\"uuid\":\"q\",\"message\":{\"content\":\"a \\q b\"}}", // bad escape
      "{\"type\":\"user\",\"uuid\":\"u\",\"message\":{\"content\":\"\\u12G4\"}}", // bad \\u
      "{\"type\":\"user\",\"uuid\":\"tab\",\"message\":{\"content\":\"a\tb\"}}", // raw tab
      "{\"type\":\"user\",\"uuid\":\"colon\",\"message\":{\"content\" 1}}",
      "{\"type\":\"user\",\"uuid\":\"comma\",\"message\":{\"content\":1,}}",
      "{\"type\":\"user\",\"uuid\":\"zero\",\"message\":{\"n\":01}}",
      "{\"type\":\"user\",\"uuid\":\"literal\",\"message\":{\"ok\":tru}}",
      "{\"type\":\"user\",\"uuid\":\"two\",\"message\":{\"a\":1 \"b\":2}}",
      "{\"type\":\"user\",\"uuid\":\"array\",\"message\":{\"a\":[1,,2]}}",
      "{\"type\":\"user\",\"uuid\":\"key\",\"message\":{1:2}}"
    };
    List<String> lines = new java.util.ArrayList<>();
    lines.add("{\"type\":\"user\",\"uuid\":\"a\",\"message\":{\"content\":\"first\"}}");
    lines.addAll(List.of(broken));
    lines.add("{\"type\":\"user\",\"uuid\":\"b\",\"message\":{\"content\":\"tab\\there\"}}");
    Transcript t = load(lines.toArray(String[]::new));

    assertThat(t.entries()).extracting(TranscriptEntry::uuid).containsExactly("a", "b");
    assertThat(t.report().malformedLines()).isEqualTo(broken.length);
    assertThat(t.entries()).extracting(TranscriptEntry::text).containsExactly("first", "tab\there");
  }

  @Test
  void aStringLongerThanJacksonsDefaultLimitLoadsAndReads() {
    // Jackson reads 20 million characters by default; a Claude Code tool result can be longer.
    String huge = "x".repeat(20_000_001);
    Transcript t =
        load("{\"type\":\"user\",\"uuid\":\"a\",\"message\":{\"content\":\"" + huge + "\"}}");
    assertThat(t.entries()).hasSize(1);
    assertThat(t.entries().get(0).text()).hasSize(huge.length());
  }

  @Test
  void aKeptFieldNamedTwiceCountsWithItsLastValue() {
    Transcript t =
        load(
            "{\"type\":\"user\",\"uuid\":\"a\",\"uuid\":\"b\",\"message\":{}}",
            "{\"type\":\"user\",\"uuid\":\"c\",\"uuid\":7,\"message\":{}}");
    assertThat(t.entries()).extracting(TranscriptEntry::uuid).containsExactly("b", null);
  }
}
