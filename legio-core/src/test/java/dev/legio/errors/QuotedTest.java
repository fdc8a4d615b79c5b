package dev.legio.errors;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuotedTest {
  @Test
  void lettersOfAnyScriptAndEmojiAreShownAsTheyAre() {
    assertThat(Quoted.of("vorenus café Ωμέγα 👍")).isEqualTo("vorenus café Ωμέγα 👍");
  }

  @Test
  void whatCouldForgeALineOrHideTextIsEscaped() {
    assertThat(Quoted.of("a\nb\r\u0007\u001b[31m")).isEqualTo("a\\u000ab\\u000d\\u0007\\u001b[31m");
    assertThat(Quoted.of("x\u202eevil\u2028y\u2029z")).isEqualTo("x\\u202eevil\\u2028y\\u2029z");
    assertThat(Quoted.of("lone \uD800 surrogate")).isEqualTo("lone \\ud800 surrogate");
    // a format character beyond the Basic Multilingual Plane (a language tag) keeps its whole
    // code point
    assertThat(Quoted.of("tag\uDB40\uDC01")).isEqualTo("tag\\u{e0001}");
  }

  @Test
  void aValueIsCutAtEightyCodePointsAndAMessageAtTwoThousand() {
    assertThat(Quoted.of("x".repeat(80))).isEqualTo("x".repeat(80));
    assertThat(Quoted.of("👍".repeat(81))).isEqualTo("👍".repeat(80) + "…");
    String advice = "y".repeat(1_500) + "; use a shorter key";
    assertThat(Quoted.message(advice)).isEqualTo(advice);
    assertThat(Quoted.message("z".repeat(2_001))).endsWith("z…").hasSize(2_001);
    assertThat(Quoted.of(null)).isEmpty();
  }
}
