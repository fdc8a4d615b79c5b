package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.ContextUse;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CondensePolicyTest {
  private static SessionRecord record(String backend, String backendId, ContextUse context) {
    Instant now = Instant.parse("2026-11-23T09:00:00Z");
    return new SessionRecord(
            "vorenus",
            UUID.randomUUID(),
            backend,
            backendId,
            "hash",
            null,
            900_000,
            0,
            3,
            0,
            now,
            now,
            now,
            SessionRecord.State.ACTIVE,
            null,
            0)
        .withContext(context);
  }

  @Test
  void aCliSessionIsCondensedOnlyAboveTheThreshold() {
    assertThat(
            CondensePolicy.due(record("claude-cli", "c", ContextUse.of(50_001, 200_000)), 50_000))
        .isTrue();
    assertThat(
            CondensePolicy.due(record("claude-cli", "c", ContextUse.of(50_000, 200_000)), 50_000))
        .isFalse();
  }

  @Test
  void zeroTurnsItOff() {
    assertThat(CondensePolicy.due(record("claude-cli", "c", ContextUse.of(900_000, 1_000_000)), 0))
        .isFalse();
  }

  @Test
  void httpBackEndsNoConversationIdAndNoSizeAreNeverCondensed() {
    ContextUse big = ContextUse.of(180_000, 200_000);
    for (String kind : new String[] {"anthropic", "openai", "ollama", "offline"}) {
      assertThat(CondensePolicy.due(record(kind, "c", big), 1_000)).as(kind).isFalse();
    }
    assertThat(CondensePolicy.due(record("claude-cli", null, big), 1_000)).isFalse();
    // Cumulative tokens are not the size of the conversation: no size, no condensing.
    assertThat(CondensePolicy.due(record("claude-cli", "c", null), 1_000)).isFalse();
  }
}
