package dev.legio.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenEstimatorTest {

  @ParameterizedTest(name = "{0} characters: {1} tokens")
  @CsvSource({"0, 0", "1, 1", "3, 1", "4, 1", "5, 2", "8, 2", "9, 3", "4000, 1000"})
  void oneTokenPerFourCharactersRoundedUp(long chars, long tokens) {
    assertThat(TokenEstimator.ofChars(chars)).isEqualTo(tokens);
    assertThat(TokenEstimator.of("x".repeat((int) chars))).isEqualTo(tokens);
  }

  @ParameterizedTest(name = "{0} characters in {1} messages: {2} tokens")
  @CsvSource({"0, 0, 0", "0, 1, 4", "5, 2, 10", "16, 3, 16"})
  void eachMessageAddsFourTokensOfFraming(long chars, long messages, long tokens) {
    assertThat(TokenEstimator.ofMessages(chars, messages)).isEqualTo(tokens);
  }
}
