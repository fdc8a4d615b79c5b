package dev.legio.app.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class ReplySplitterTest {

  @Test
  void aTextThatFitsIsOnePart() {
    assertThat(ReplySplitter.split("short", 2_000)).containsExactly("short");
  }

  @Test
  void cutsFallBetweenLines() {
    String text = "a".repeat(60) + "\n" + "b".repeat(60) + "\n" + "c".repeat(60);

    assertThat(ReplySplitter.split(text, 130))
        .containsExactly("a".repeat(60) + "\n" + "b".repeat(60), "c".repeat(60));
  }

  @Test
  void aCodeBlockCutInTwoIsClosedAndReopenedWithItsLanguage() {
    String code = String.join("\n", java.util.Collections.nCopies(10, "x".repeat(30)));
    String text = "intro\n```python\n" + code + "\n```\noutro";

    List<String> parts = ReplySplitter.split(text, 150);

    assertThat(parts).hasSizeGreaterThan(2);
    assertThat(parts).allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(150));
    assertThat(parts).allSatisfy(p -> assertThat(fences(p) % 2).as(p).isZero());
    assertThat(parts.get(0)).startsWith("intro\n```python\n").endsWith("\n```");
    assertThat(parts.get(1)).startsWith("```python\n");
  }

  @Test
  void aLineLongerThanAMessageIsCutButNeverInsideASurrogatePair() {
    String text = "😀".repeat(150); // 300 UTF-16 units

    List<String> parts = ReplySplitter.split(text, 101);

    assertThat(parts).allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(101));
    assertThat(parts)
        .allSatisfy(p -> assertThat(Character.isLowSurrogate(p.charAt(0))).as(p).isFalse());
    assertThat(String.join("", parts)).isEqualTo(text);
  }

  @Property(tries = 300)
  void partsFitKeepEveryLineAndBalanceTheirFences(
      @ForAll @IntRange(min = 0, max = 40) int lines,
      @ForAll @IntRange(min = 0, max = 250) int width,
      @ForAll @StringLength(max = 3) String seed) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      if (i % 7 == 3) {
        text.append("```lang\n");
      } else if (i % 7 == 6) {
        text.append("```\n");
      } else {
        text.append(("line" + i + seed).repeat(Math.max(1, (width * (i % 5)) / 8))).append('\n');
      }
    }
    String input = text.toString();

    List<String> parts = ReplySplitter.split(input, 200);

    assertThat(parts).allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(200));
    if (fences(input) % 2 == 0) {
      assertThat(parts).allSatisfy(p -> assertThat(fences(p) % 2).as(p).isZero());
    }
    assertThat(String.join("", nonFence(String.join("\n", parts))))
        .isEqualTo(String.join("", nonFence(input)));
  }

  private static long fences(String part) {
    return Arrays.stream(part.split("\n")).filter(l -> l.strip().startsWith("```")).count();
  }

  /** The text's characters outside fence lines, line breaks left out. */
  private static List<String> nonFence(String text) {
    return Arrays.stream(text.split("\n")).filter(l -> !l.strip().startsWith("```")).toList();
  }
}
