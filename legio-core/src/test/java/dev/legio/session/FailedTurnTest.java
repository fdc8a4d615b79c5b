package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.Usage;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class FailedTurnTest {
  private static final UUID SESSION = UUID.randomUUID();
  private static final Instant AT = Instant.parse("2026-11-28T10:00:00Z");

  private static FailedTurn.Builder minimal() {
    return FailedTurn.builder("vorenus", SESSION)
        .backendKind("offline")
        .at(AT)
        .cause(FailedTurn.Cause.ERROR);
  }

  @Test
  void aTurnBuiltFromTheRequiredFieldsAloneTakesTheDocumentedDefaults() {
    FailedTurn turn = minimal().build();

    assertThat(turn)
        .isEqualTo(
            new FailedTurn(
                "vorenus", SESSION, null, "offline", Usage.NONE, AT, null, FailedTurn.Cause.ERROR));
  }

  @Test
  void eachFieldSetByNameLandsInItsOwnPlace() {
    Usage usage = new Usage(100, 20, 0, 0, false);

    FailedTurn turn =
        minimal()
            .model("opus")
            .backendKind("anthropic")
            .usage(usage)
            .duration(Duration.ofSeconds(3))
            .cause(FailedTurn.Cause.LEASE_LOST)
            .build();

    assertThat(turn.model()).isEqualTo("opus");
    assertThat(turn.backendKind()).isEqualTo("anthropic");
    assertThat(turn.usage()).isEqualTo(usage);
    assertThat(turn.duration()).isEqualTo(Duration.ofSeconds(3));
    assertThat(turn.cause()).isEqualTo(FailedTurn.Cause.LEASE_LOST);
  }

  @Test
  void noUsageGivenIsNone() {
    assertThat(minimal().usage(null).build().usage()).isEqualTo(Usage.NONE);
    assertThat(new FailedTurn("vorenus", SESSION, null, "offline", null, AT, null, cause()).usage())
        .isEqualTo(Usage.NONE);
  }

  @Test
  void eachRequiredFieldLeftOutIsRefusedByName() {
    assertRefused("backendKind", b -> b.backendKind(null));
    assertRefused("at", b -> b.at(null));
    assertRefused("cause", b -> b.cause(null));
  }

  @Test
  void theRecordItselfRefusesTheRequiredFieldsByName() {
    assertThatThrownBy(
            () -> new FailedTurn(null, SESSION, null, "offline", null, AT, null, cause()))
        .hasMessage("owner");
    assertThatThrownBy(
            () -> new FailedTurn("vorenus", null, null, "offline", null, AT, null, cause()))
        .hasMessage("sessionId");
    assertThatThrownBy(
            () -> new FailedTurn("vorenus", SESSION, null, null, null, AT, null, cause()))
        .hasMessage("backendKind");
    assertThatThrownBy(
            () -> new FailedTurn("vorenus", SESSION, null, "offline", null, null, null, cause()))
        .hasMessage("at");
    assertThatThrownBy(
            () -> new FailedTurn("vorenus", SESSION, null, "offline", null, AT, null, null))
        .hasMessage("cause");
  }

  @Test
  void theOwnerAndTheSessionAreRequired() {
    assertThatThrownBy(() -> FailedTurn.builder(null, SESSION))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("owner");
    assertThatThrownBy(() -> FailedTurn.builder("vorenus", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("sessionId");
  }

  @Test
  void aSetterCalledTwiceKeepsTheLastValueAndBuildMayBeCalledAgain() {
    FailedTurn.Builder builder = minimal().model("haiku").model("opus");

    assertThat(builder.build().model()).isEqualTo("opus");
    assertThat(builder.build()).isEqualTo(builder.build());
  }

  private static FailedTurn.Cause cause() {
    return FailedTurn.Cause.ERROR;
  }

  private static void assertRefused(String field, UnaryOperator<FailedTurn.Builder> unset) {
    assertThatThrownBy(() -> unset.apply(minimal()).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage(field);
  }
}
