package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class StorableReplyTest {
  @Test
  void anAnswerTheLogCanKeepIsKeptExactly() {
    String answer = "Scouted: </nuntius> ]]> 🜂 done";
    assertThat(StorableReply.of(answer, 1 << 20)).isSameAs(answer);
  }

  @Test
  void aNulAndAnUnpairedSurrogateBecomeTheReplacementCharacter() {
    assertThat(StorableReply.of("a\u0000b\uD800c\uDC00d🜂", 1 << 20))
        .isEqualTo("a\uFFFDb\uFFFDc\uFFFDd🜂");
  }

  @Test
  void aLongAnswerIsCutAtACharacterBoundaryAndSaysSo() {
    String cut = StorableReply.of("🜂".repeat(100), 200);
    assertThat(cut).startsWith("🜂").contains("[… the answer was cut here: it was 400 bytes");
    assertThat(cut.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(200);
    assertThat(cut.codePoints().noneMatch(c -> c == 0xFFFD)).isTrue();
  }

  @Property
  void whateverTheAnswerTheResultFitsTheMaximum(
      @ForAll String answer, @ForAll @IntRange(min = 4, max = 400) int max) {
    String kept = StorableReply.of(answer, max);
    assertThat(kept.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(max);
    assertThat(kept.chars().noneMatch(c -> c == 0)).isTrue();
    if (answer.getBytes(StandardCharsets.UTF_8).length <= max && !answer.contains("\u0000")) {
      assertThat(kept)
          .isEqualTo(answer.codePoints().anyMatch(c -> c >= 0xD800 && c <= 0xDFFF) ? kept : answer);
    }
  }
}
