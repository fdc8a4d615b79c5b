package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.Usage;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class CompletedTurnTest {
  private static final UUID SESSION = UUID.randomUUID();
  private static final Instant AT = Instant.parse("2026-11-28T10:00:00Z");

  private static CompletedTurn.Builder minimal() {
    return CompletedTurn.builder("vorenus", SESSION)
        .sent("scout the north")
        .reply("done")
        .usage(Usage.NONE)
        .at(AT)
        .backendKind("offline");
  }

  @Test
  void aTurnBuiltFromTheRequiredFieldsAloneTakesTheDocumentedDefaults() {
    CompletedTurn turn = minimal().build();

    assertThat(turn)
        .isEqualTo(
            new CompletedTurn(
                "vorenus",
                SESSION,
                false,
                "scout the north",
                "done",
                null,
                Usage.NONE,
                AT,
                "offline",
                0,
                List.of(),
                null,
                null,
                null));
  }

  @Test
  void nullCompactionsAreNone() {
    assertThat(minimal().compactions(null).build().compactions()).isEmpty();
  }

  @Test
  void eachRequiredFieldLeftOutIsRefusedByName() {
    assertRefused("sent", b -> b.sent(null));
    assertRefused("reply", b -> b.reply(null));
    assertRefused("at", b -> b.at(null));
    assertRefused("usage", b -> b.usage(null));
    assertRefused("backendKind", b -> b.backendKind(null));
  }

  @Test
  void theOwnerAndTheSessionAreRequired() {
    assertThatThrownBy(() -> CompletedTurn.builder(null, SESSION))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("owner");
    assertThatThrownBy(() -> CompletedTurn.builder("vorenus", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("sessionId");
  }

  private static void assertRefused(String field, UnaryOperator<CompletedTurn.Builder> unset) {
    assertThatThrownBy(() -> unset.apply(minimal()).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage(field);
  }
}
