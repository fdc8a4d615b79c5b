package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
  void anEntryWhoseBodyIsNotJsonSaysWhichLineOfWhichFileWithoutJacksonsInternals() {
    // The scanner does not check the grammar between tokens: the body is parsed on first use.
    Transcript t =
        load(
            "{\"type\":\"user\",\"uuid\":\"a\",\"message\":{}}",
            "{\"type\":\"agent-name\",\"agentName\":\"vorenus\"}",
            "{\"type\":\"user\",\"uuid\":\"b\",\"message\":{\"content\" 1}}");
    assertThat(t.entries()).hasSize(2);
    assertThatThrownBy(() -> t.entries().get(1).text())
        .isInstanceOf(TranscriptException.class)
        .hasMessageStartingWith("line 3, column ")
        .hasMessageContaining(" of test is not valid JSON (")
        .hasMessageEndingWith("): fix or delete that line")
        .hasMessageNotContaining("Source")
        .hasMessageNotContaining("line: 1");
  }

  @Test
  void anEntryOverJacksonsLimitsSaysSoWithoutItsApiNames() {
    // a string longer than Jackson reads (20 million characters): the scanner takes the line
    String huge = "x".repeat(20_000_001);
    Transcript t =
        load("{\"type\":\"user\",\"uuid\":\"a\",\"message\":{\"content\":\"" + huge + "\"}}");
    assertThat(t.entries()).hasSize(1);
    assertThatThrownBy(() -> t.entries().get(0).text())
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining("exceeds the maximum allowed")
        .hasMessageNotContaining("StreamReadConstraints")
        .hasMessageEndingWith("): fix or delete that line");
  }
}
