package dev.legio.backend.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.BackendSession;
import dev.legio.backend.ContextUse;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TokenEstimator;
import dev.legio.backend.TurnResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OfflineBackendTest {
  private static final String PROMPT = "You are vorenus, a scout. ".repeat(40);

  private static SessionSpec spec() {
    return new SessionSpec("vorenus", PROMPT, null, SessionSpec.OPERATOR_ROLE, null);
  }

  @Test
  void theContextEstimateIsEverythingTheSessionHoldsAndGrowsWithEveryTurn() {
    List<String> received = new ArrayList<>();
    List<ContextUse> uses = new ArrayList<>();
    try (BackendSession session = new OfflineBackend().open(spec())) {
      for (int turn = 1; turn <= 3; turn++) {
        String message = "Report " + turn + ": " + "the northern road ".repeat(50 * turn);
        TurnResult result = session.send(message, e -> {});
        received.add(message);
        received.add(result.text());
        uses.add(result.context());
      }
    }

    // One token per four characters of the system prompt, every message and every answer so far.
    StringBuilder all = new StringBuilder(PROMPT);
    received.forEach(all::append);
    assertThat(uses.get(2).tokens()).isEqualTo(TokenEstimator.of(all));
    assertThat(uses)
        .extracting(ContextUse::tokens)
        .isSortedAccordingTo(Long::compare)
        .doesNotHaveDuplicates();
    assertThat(uses).allSatisfy(u -> assertThat(u.window()).isEqualTo(200_000));
    assertThat(uses).allSatisfy(u -> assertThat(u.compactionDisabled()).isFalse());
  }

  @Test
  void aStatedWindowIsReportedAndMustBePositive() {
    try (BackendSession session = new OfflineBackend(8_192).open(spec())) {
      ContextUse use = session.send("hello", e -> {}).context();
      assertThat(use.window()).isEqualTo(8_192);
      assertThat(use.percent()).isGreaterThan(0);
    }
    assertThatThrownBy(() -> new OfflineBackend(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("positive");
  }

  @Test
  void eachSessionCountsOnlyItsOwnConversation() {
    OfflineBackend backend = new OfflineBackend();
    try (BackendSession busy = backend.open(spec());
        BackendSession quiet = backend.open(spec())) {
      busy.send("x".repeat(40_000), e -> {});
      long quietTokens = quiet.send("hi", e -> {}).context().tokens();
      long busyTokens = busy.send("hi", e -> {}).context().tokens();
      assertThat(busyTokens - quietTokens).isGreaterThanOrEqualTo(10_000);
    }
  }
}
