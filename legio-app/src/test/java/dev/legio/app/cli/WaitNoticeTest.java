package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.InMemorySessionStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WaitNoticeTest {
  private final InMemorySessionStore sessions = new InMemorySessionStore();
  private final StringWriter said = new StringWriter();
  private final PrintWriter err = new PrintWriter(said, true);

  @Test
  void aCommandThatFindsNoTurnRunningSaysNothingHoweverLongItsOwnWorkTakes() throws Exception {
    try (WaitNotice notice =
        WaitNotice.forTurnOf(
            Set.of("vorenus"),
            sessions,
            Instant.now(),
            "a turn of vorenus",
            Duration.ofSeconds(30),
            err)) {
      assertThat(notice).isSameAs(WaitNotice.NONE);
      Thread.sleep(WaitNotice.AFTER.toMillis() + 300);
    }
    assertThat(said.toString()).isEmpty();
  }

  @Test
  void aCommandThatWaitsForARunningTurnSaysSoAfterASecond() throws Exception {
    sessions.tryLease("vorenus", "another-process", Instant.now(), Duration.ofMinutes(5));
    try (WaitNotice notice =
        WaitNotice.forTurnOf(
            Set.of("pullo", "vorenus"),
            sessions,
            Instant.now(),
            "a turn of vorenus",
            Duration.ofSeconds(30),
            err)) {
      Thread.sleep(WaitNotice.AFTER.toMillis() + 500);
    }
    assertThat(said.toString())
        .isEqualTo(
            "legio: waiting for a turn of vorenus to end (up to 30 s, [sessions]"
                + " lock_wait_seconds)..."
                + System.lineSeparator());
  }

  @Test
  void aLeaseIsReadOnTheStoresClockNotThisMachines() throws Exception {
    // The database's time (the clock leases are taken on) is a day behind this machine's: the
    // lease is live on it, though this machine's clock would call it long expired.
    Instant databaseNow = Instant.now().minus(Duration.ofDays(1));
    sessions.tryLease("vorenus", "another-process", databaseNow, Duration.ofMinutes(5));
    try (WaitNotice notice =
        WaitNotice.forTurnsOf(
            Set.of("vorenus"),
            sessions,
            databaseNow.plusSeconds(10),
            Duration.ofSeconds(30),
            err)) {
      assertThat(notice).isNotSameAs(WaitNotice.NONE);
    }
  }
}
