package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Percent-decoding as UTF-8: only ASCII hex digits after '%', characters sent as-is kept whole. */
class PercentEncodingTest {
  @Test
  void aCharacterBeyondU10000SentAsItIsIsKeptWholeNotTurnedIntoQuestionMarks() {
    assertThat(PercentEncoding.decode("caesar\uD83D\uDE00+%C3%A9", "query parameter 'viewer'"))
        .isEqualTo("caesar\uD83D\uDE00 \u00e9");
    assertThat(PercentEncoding.decode("\uD83C\uDFDB%20x\u00e9", "the path"))
        .isEqualTo("\uD83C\uDFDB x\u00e9");
  }

  @Test
  void onlyAsciiHexDigitsFollowAPercentSign() {
    // Arabic-Indic three, fullwidth A: Character.digit reads them as 3 and 10.
    for (String raw : new String[] {"%\u0663\u0663", "%4\uFF21", "%\uFF14\uFF11"}) {
      assertThatThrownBy(() -> PercentEncoding.decode(raw, "query parameter 'viewer'"))
          .as(raw)
          .isInstanceOf(ApiException.class)
          .hasMessageContaining("has a '%' not followed by two hexadecimal digits");
    }
    assertThat(PercentEncoding.decode("%41%6a%4A", "query parameter 'viewer'")).isEqualTo("AjJ");
  }
}
