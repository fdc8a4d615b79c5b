package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The writer's health by its rules, with time moved instead of waited for. */
class WriterHealthTest {
  private long now = 1_000;
  private final WriterHealth health = new WriterHealth(() -> now);

  @Test
  void aTransactionRunningPastTheBoundIsAStallUntilItEnds() {
    health.began();
    now += WriterHealth.STALLED_AFTER.toNanos();
    assertThat(health.problem()).as("at the bound").isEmpty();

    now += Duration.ofSeconds(5).toNanos();
    assertThat(health.problem())
        .hasValueSatisfying(
            p -> assertThat(p).contains("has not finished the log writer's transaction for 20 s"));

    health.ended();
    assertThat(health.problem()).isEmpty();
  }

  @Test
  void aFailedWriteIsAProblemUntilAWriteSucceeds() {
    health.failed("[SQLITE_BUSY] database is locked");
    assertThat(health.failing()).isTrue();
    assertThat(health.problem())
        .hasValue("the last write to the database failed: [SQLITE_BUSY] database is locked");

    health.succeeded();
    assertThat(health.failing()).isFalse();
    assertThat(health.problem()).isEmpty();
  }
}
