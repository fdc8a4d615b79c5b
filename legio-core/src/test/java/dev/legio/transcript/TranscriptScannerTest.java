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
}
