package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RecipientsTest {
  private static final Set<String> KNOWN = Set.of("legatus", "vorenus", "pullo");
  private static final Set<String> CENTURIONES = Set.of("vorenus", "pullo");

  static Stream<Arguments> caesarsMessages() {
    return Stream.of(
        Arguments.of("report", new Recipients.To(List.of("legatus"))),
        Arguments.of("@vorenus scout", new Recipients.To(List.of("vorenus"))),
        Arguments.of("@pullo @vorenus scout", new Recipients.To(List.of("pullo", "vorenus"))),
        Arguments.of(
            "@brutus scout",
            new Recipients.Refused(
                "Unknown agent @brutus. Known agents: @legatus, @pullo, @vorenus.")),
        Arguments.of("   ", new Recipients.Refused("Nothing to send: the message is empty.")),
        Arguments.of(null, new Recipients.Refused("Nothing to send: the message is empty.")));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @MethodSource("caesarsMessages")
  void caesarsMessageGoesToItsMentionsElseTheLegatus(String text, Recipients.Decision expected) {
    assertThat(Recipients.ofCaesarsMessage(text, KNOWN)).isEqualTo(expected);
  }

  static Stream<Arguments> dispatches() {
    return Stream.of(
        Arguments.of(List.of("vorenus"), "dig", new Recipients.To(List.of("vorenus"))),
        Arguments.of(
            List.of("pullo", "vorenus", "pullo"),
            "dig",
            new Recipients.To(List.of("pullo", "vorenus"))),
        Arguments.of(
            List.of("legatus"),
            "dig",
            new Recipients.Refused("No centurio named 'legatus'. Centuriones: pullo, vorenus.")),
        Arguments.of(
            List.of(),
            "dig",
            new Recipients.Refused("No centurio named: say who the message is for.")),
        Arguments.of(
            List.of("vorenus"),
            "",
            new Recipients.Refused("Nothing to send: the message is empty.")));
  }

  @ParameterizedTest(name = "[{index}] {0} \"{1}\"")
  @MethodSource("dispatches")
  void aDispatchGoesToKnownCenturionesOnlyEachOnce(
      List<String> to, String text, Recipients.Decision expected) {
    assertThat(Recipients.ofDispatch(to, text, CENTURIONES)).isEqualTo(expected);
  }

  @Test
  void mentionsInADispatchedTextAreNotParsed() {
    assertThat(Recipients.ofDispatch(List.of("vorenus"), "@pullo look", CENTURIONES))
        .isEqualTo(new Recipients.To(List.of("vorenus")));
  }
}
