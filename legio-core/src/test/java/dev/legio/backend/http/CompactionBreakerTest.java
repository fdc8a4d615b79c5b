package dev.legio.backend.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The breaker over a real (SQLite) conversation store, reopened to simulate a restart. */
class CompactionBreakerTest {
  @TempDir Path dir;
  private HttpBackendHarness h;

  @BeforeEach
  void start() {
    h = new HttpBackendHarness(dir);
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private Conversation stored() {
    Conversation c =
        new Conversation(
            UUID.randomUUID(),
            "vorenus",
            "anthropic",
            "m",
            "system",
            null,
            null,
            Instant.parse("2026-03-01T09:00:00Z"),
            List.of());
    h.conversations().create(c);
    return c;
  }

  @Test
  void itOpensAtTheNthFailureInARowAndARestartRemembersIt() {
    Conversation c = stored();
    CompactionBreaker breaker = new CompactionBreaker(h.conversations(), 3);

    c = breaker.failed(c);
    assertThat(c.compactionFailures()).isEqualTo(1);
    assertThat(breaker.isOpen(c)).isFalse();
    c = breaker.failed(breaker.failed(c));
    assertThat(c.compactionFailures()).isEqualTo(3);
    assertThat(breaker.isOpen(c)).isTrue();

    h.restart();
    Conversation reread = h.conversations().find(c.id()).orElseThrow();
    assertThat(reread.compactionFailures()).isEqualTo(3);
    assertThat(new CompactionBreaker(h.conversations(), 3).isOpen(reread)).isTrue();
  }

  @Test
  void aCompactedConversationStartsWithTheBreakerClosed() {
    Conversation c = stored();
    CompactionBreaker breaker = new CompactionBreaker(h.conversations(), 1);
    c = breaker.failed(c);
    assertThat(breaker.isOpen(c)).isTrue();

    Conversation next =
        new Compaction(List.of(), List.of(), 0)
            .conversation(
                UUID.randomUUID(), c, "<context_summary>s</context_summary>", c.createdAt());

    assertThat(next.compactionFailures()).isZero();
    assertThat(breaker.isOpen(next)).isFalse();
  }
}
