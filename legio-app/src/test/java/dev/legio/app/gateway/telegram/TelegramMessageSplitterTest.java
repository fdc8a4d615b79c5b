package dev.legio.app.gateway.telegram;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class TelegramMessageSplitterTest {

  /** Texts made of words, spaces, line breaks, blank lines, fences, emoji and very long words. */
  @Provide
  Arbitrary<String> texts() {
    Arbitrary<String> token =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(
                30, Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12)),
            net.jqwik.api.Tuple.of(20, Arbitraries.just(" ")),
            net.jqwik.api.Tuple.of(10, Arbitraries.just("\n")),
            net.jqwik.api.Tuple.of(5, Arbitraries.just("\n\n")),
            net.jqwik.api.Tuple.of(
                3, Arbitraries.of("\n```\n", "\n```java\n", "\n~~~\n", "\n````\n")),
            net.jqwik.api.Tuple.of(3, Arbitraries.of("😀", "é", "<b>&amp;</b>", "`x`")),
            net.jqwik.api.Tuple.of(
                1, Arbitraries.strings().alpha().ofMinLength(100).ofMaxLength(700)));
    return token.list().ofMaxSize(400).map(l -> String.join("", l));
  }

  @Property(tries = 400)
  void everyMessageIsWithinTheLimit(
      @ForAll("texts") String text, @ForAll @IntRange(min = 128, max = 600) int limit) {
    for (String message : new TelegramMessageSplitter(limit).split(text)) {
      assertThat(message.length()).isLessThanOrEqualTo(limit);
    }
  }

  @Property(tries = 400)
  void theBodiesJoinedWithWhatWasDroppedGiveTheTextBack(
      @ForAll("texts") String text, @ForAll @IntRange(min = 128, max = 600) int limit) {
    StringBuilder joined = new StringBuilder();
    for (TelegramMessageSplitter.Piece piece : new TelegramMessageSplitter(limit).pieces(text)) {
      joined.append(piece.body()).append(piece.separator());
    }
    assertThat(joined.toString()).isEqualTo(text);
  }

  @Property(tries = 400)
  void noMessageEndsInsideACodeBlockTheTextCloses(
      @ForAll("texts") String text, @ForAll @IntRange(min = 128, max = 600) int limit) {
    List<String> messages = new TelegramMessageSplitter(limit).split(text);
    boolean textCloses = TelegramMessageSplitter.fenceAt(text, 0, text.length(), null) == null;
    for (int i = 0; i < messages.size(); i++) {
      String m = messages.get(i);
      boolean last = i == messages.size() - 1;
      if (!last || textCloses) {
        assertThat(TelegramMessageSplitter.fenceAt(m, 0, m.length(), null))
            .as("message %d of %d leaves a fence open:%n%s", i + 1, messages.size(), m)
            .isNull();
      }
    }
  }

  @Property(tries = 200)
  void noSurrogatePairIsCut(
      @ForAll("texts") String text, @ForAll @IntRange(min = 128, max = 600) int limit) {
    for (String message : new TelegramMessageSplitter(limit).split(text)) {
      if (message.isEmpty()) {
        continue; // the empty text
      }
      assertThat(Character.isLowSurrogate(message.charAt(0))).isFalse();
      assertThat(Character.isHighSurrogate(message.charAt(message.length() - 1))).isFalse();
    }
  }

  @Example
  void aTextWithinTheLimitIsOneMessageUnchanged() {
    String text = "```java\nint x = 1;\n```\n\n<b>hi</b>";
    assertThat(TelegramMessageSplitter.telegram().split(text)).containsExactly(text);
  }

  @Example
  void aCutFallsOnAParagraphBoundaryWhenThereIsOne() {
    String first = "a".repeat(80) + "\n" + "b".repeat(20);
    String second = "c".repeat(60);
    List<String> messages = new TelegramMessageSplitter(128).split(first + "\n\n" + second);
    assertThat(messages).containsExactly(first, "\n" + second);
  }

  @Example
  void aCodeBlockCutInTwoIsClosedAndReopenedWithItsLanguage() {
    StringBuilder code = new StringBuilder("Here:\n```python\n");
    for (int i = 0; i < 600; i++) {
      code.append("print(").append(i).append(")\n");
    }
    code.append("```\nDone.");
    List<String> messages = TelegramMessageSplitter.telegram().split(code.toString());
    assertThat(messages).hasSizeGreaterThan(1);
    assertThat(messages.get(0)).startsWith("Here:\n```python\n").endsWith("\n```");
    assertThat(messages.get(1)).startsWith("```python\nprint(");
    assertThat(messages.get(messages.size() - 1)).endsWith("```\nDone.");
    messages.forEach(m -> assertThat(m.length()).isLessThanOrEqualTo(4096));
  }
}
