package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.Audience;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Owner} and {@link Activity}: the kind of an owner from its name, and what it does. */
class OwnerTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "-",
      value = {
        // name,          kind,     source,   speaker,  viewer,         answered to
        "legatus,         LEGATUS,  -,        legatus,  legatus,        caesar",
        "vorenus,         CENTURIO, -,        vorenus,  vorenus,        caesar",
        "telegram:123,    CHANNEL,  telegram, legatus,  telegram:123,   telegram:123",
        "slack:c1,        CHANNEL,  slack,    legatus,  slack:c1,       slack:c1",
      })
  void anOwnersNameSaysItsKindAndItsKindItsPlaceInTheLog(
      String name,
      OwnerKind kind,
      String source,
      String speaker,
      String viewer,
      String answeredTo) {
    Owner owner = Owner.of(name);
    assertThat(owner.kind()).isEqualTo(kind);
    assertThat(owner.source()).isEqualTo(source);
    assertThat(owner.isChannel()).isEqualTo(kind == OwnerKind.CHANNEL);
    assertThat(owner.speaker()).isEqualTo(speaker);
    assertThat(owner.viewer()).isEqualTo(viewer);
    assertThat(owner.replyAudience()).isEqualTo(Audience.of(answeredTo));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"legatus", "vorenus"})
  void aChannelKeyNeedsASource(String key) {
    assertThatThrownBy(() -> Owner.channel(key))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("source:id, e.g. telegram:123")
        .hasMessageContaining(key);
  }

  @ParameterizedTest(name = "here {0}, leased elsewhere {1}: {2}")
  @CsvSource(
      nullValues = "-",
      value = {
        "-,       false, IDLE",
        "-,       true,  WORKING",
        "IDLE,    false, IDLE",
        "IDLE,    true,  WORKING",
        "WORKING, false, WORKING",
        "ERROR,   false, ERROR",
        "ERROR,   true,  ERROR",
      })
  void thisProcessesViewWinsElseALeaseHeldElsewhereMeansWorking(
      Activity local, boolean leased, Activity expected) {
    Set<String> leasedOwners = leased ? Set.of("vorenus") : Set.of("pullo");
    assertThat(Activity.of(local, "vorenus", leasedOwners)).isEqualTo(expected);
    assertThat(expected.label()).isEqualTo(expected.name().toLowerCase(java.util.Locale.ROOT));
  }
}
