package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WholeNumberTest {
  @Test
  void asciiDigitsWithAnOptionalMinusAreANumber() {
    assertThat(WholeNumber.parse("0")).hasValue(0);
    assertThat(WholeNumber.parse("120")).hasValue(120);
    assertThat(WholeNumber.parse("-5")).hasValue(-5);
    assertThat(WholeNumber.parse("9223372036854775807")).hasValue(Long.MAX_VALUE);
  }

  @Test
  void otherScriptsDigitsSignsSpacesAndOverflowAreNot() {
    for (String text :
        new String[] {
          "５", "١٠٠", "+5", " 5", "5 ", "", "-", "1e3", "0x10", "9223372036854775808", null
        }) {
      assertThat(WholeNumber.parse(text)).as(String.valueOf(text)).isEqualTo(OptionalLong.empty());
    }
  }
}
