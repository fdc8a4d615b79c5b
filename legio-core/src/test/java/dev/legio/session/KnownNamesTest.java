package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.Audience;
import dev.legio.log.InvalidMessageException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KnownNamesTest {
  private final KnownNames names = new KnownNames(Set.of("vorenus", "legatus", "pullo"));

  @Test
  void anAudienceOfKnownNamesEveryoneOrAChannelIsTaken() {
    assertThat(names.audience(List.of("caesar", "vorenus")))
        .isEqualTo(Audience.of("caesar", "vorenus"));
    assertThat(names.audience(List.of("all"))).isEqualTo(Audience.ALL);
    assertThat(names.audience(List.of("nosuch", "all"))).isEqualTo(Audience.ALL);
    assertThat(names.audience(List.of("telegram:123"))).isEqualTo(Audience.of("telegram:123"));
  }

  @Test
  void anAudienceWithUnknownNamesIsRefusedNamingThemAndTheKnownOnes() {
    assertThatThrownBy(() -> names.audience(List.of("pullo", "nosuch", "brutus")))
        .isInstanceOf(InvalidMessageException.class)
        .hasMessage(
            "Unknown name nosuch, brutus. Known names: caesar, legatus, pullo, vorenus,"
                + " all (everyone).");
  }

  @Test
  void aMalformedNameGetsTheNameRuleFirst() {
    assertThatThrownBy(() -> names.audience(List.of("Bad Name")))
        .hasMessageContaining("audience name 'Bad Name' is not a valid name");
    assertThatThrownBy(() -> names.viewer("Bad Name"))
        .hasMessageContaining("viewer 'Bad Name' is not a valid name");
  }

  @Test
  void aViewerIsCaesarAnAgentOrAChannelNeverAll() {
    assertThat(names.viewer("caesar")).isEqualTo("caesar");
    assertThat(names.viewer("pullo")).isEqualTo("pullo");
    assertThat(names.viewer("telegram:123")).isEqualTo("telegram:123");
    assertThatThrownBy(() -> names.viewer("all"))
        .isInstanceOf(InvalidMessageException.class)
        .hasMessage("Unknown viewer all. Known names: caesar, legatus, pullo, vorenus.");
    assertThatThrownBy(() -> names.viewer("nosuch"))
        .hasMessage("Unknown viewer nosuch. Known names: caesar, legatus, pullo, vorenus.");
  }

  @Test
  void unknownMentionsAreRefusedAsLegioSayDoes() {
    assertThat(names.unknownMentions(List.of("brutus")))
        .isEqualTo("Unknown agent @brutus. Known agents: @legatus, @pullo, @vorenus.");
  }

  @Test
  void aNameThatIsNoAgentIsRefusedNamingTheAgentsAndQuotedSafely() {
    assertThat(names.noAgentNamed("brutus"))
        .isEqualTo("no agent named 'brutus'. Known agents: legatus, pullo, vorenus.");
    assertThat(names.noAgentNamed("a\nb"))
        .isEqualTo("no agent named 'a\\u000ab'. Known agents: legatus, pullo, vorenus.");
    assertThat(new KnownNames(java.util.Set.of()).noAgentNamed("x"))
        .isEqualTo("no agent named 'x'. Known agents: (none).");
  }
}
