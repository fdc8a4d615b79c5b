package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class MentionsTest {
  private static final Set<String> KNOWN = Set.of("legatus", "vorenus", "pullo");

  @Test
  void aLookAlikeNameIsReportedWholeNotCutAtItsFirstForeignLetter() {
    // "vorеnus" with a Cyrillic е (U+0435).
    Mentions.Routing routing = Mentions.parse("@vor\u0435nus report", KNOWN);
    assertThat(routing.targets()).isEmpty();
    assertThat(routing.unknown()).containsExactly("vor\u0435nus");
  }

  @Test
  void mentionsEndAtPunctuationAndEmailAddressesAreNoMentions() {
    Mentions.Routing routing =
        Mentions.parse("@Vorenus, ask @pullo's view; mail ann@example.com @vorenus-", KNOWN);
    assertThat(routing.targets()).containsExactly("vorenus", "pullo");
    assertThat(routing.unknown()).isEmpty();
  }
}
