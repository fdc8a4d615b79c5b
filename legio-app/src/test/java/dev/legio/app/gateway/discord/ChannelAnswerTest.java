package dev.legio.app.gateway.discord;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChannelAnswerTest {
  @Test
  void theIntroNeverCutsACharacterOutsideTheBmpInHalf() {
    String grin = new String(Character.toChars(0x1F600));
    String question =
        "a".repeat(ChannelAnswer.QUOTED_CHARS - 1) + grin + " and more" + "b".repeat(50);

    String intro = ChannelAnswer.intro("42", question);

    assertThat(intro.codePoints().filter(cp -> cp >= 0xD800 && cp <= 0xDFFF))
        .as("no lone surrogate, which reaches Discord as '?'")
        .isEmpty();
    assertThat(intro).endsWith("a …");
  }
}
