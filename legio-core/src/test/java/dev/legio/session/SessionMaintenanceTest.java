package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link SessionMaintenance}: runs the tasks it is handed; knows none itself. */
class SessionMaintenanceTest {
  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  private final RecordedRuns runs = new RecordedRuns();
  private final AtomicInteger cleanups = new AtomicInteger();
  private final DailyCleanup cleanup =
      new DailyCleanup(
          List.of(new DailyCleanup.Task("records", cleanups::incrementAndGet)), runs, clock);

  private SessionMaintenance maintenance(Duration catchUpDelay) {
    return new SessionMaintenance.Tasks()
        .daily(cleanup, Runnable::run)
        .build(clock, new DailySchedule(LocalTime.of(2, 0), catchUpDelay));
  }

  @Test
  void aStartAfterTheCleanupTimeMakesUpTheRunThatDidNotHappen() {
    try (SessionMaintenance m = maintenance(DailySchedule.CATCH_UP_DELAY)) {
      // Never ran: the first start cleans up.
      assertThat(m.catchUp()).isTrue();
      assertThat(cleanups).hasValue(1);

      // Restarted an hour later: today's run is done.
      clock.advance(Duration.ofHours(1));
      assertThat(m.catchUp()).isFalse();

      // A daily deploy at 09:00: this morning's 02:00 found no Legio running.
      clock.set(Instant.parse("2026-11-22T09:00:00Z"));
      assertThat(m.catchUp()).isTrue();
      assertThat(cleanups).hasValue(2);

      // The scheduled run at 02:00 happened: a restart after it runs nothing more.
      clock.set(Instant.parse("2026-11-23T02:00:00Z"));
      m.dailyCleanup();
      clock.set(Instant.parse("2026-11-23T09:00:00Z"));
      assertThat(m.catchUp()).isFalse();
      assertThat(cleanups).hasValue(3);
    }
  }

  @Test
  void aNodeTheGateSkipsNeitherChecksNorRuns() {
    AtomicInteger gated = new AtomicInteger();
    try (SessionMaintenance m =
        new SessionMaintenance.Tasks()
            .daily(cleanup, task -> gated.incrementAndGet())
            .build(clock, DailySchedule.at(LocalTime.of(2, 0)))) {
      assertThat(m.catchUp()).isFalse();
      m.dailyCleanup();
    }
    assertThat(gated).hasValue(2);
    assertThat(cleanups).hasValue(0);
  }

  @Test
  void startMakesUpAMissedRunAfterTheCatchUpDelayWithoutWaitingForIt() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    DailyCleanup signalling =
        new DailyCleanup(
            List.of(
                new DailyCleanup.Task(
                    "records",
                    () -> {
                      ran.countDown();
                      return 0;
                    })),
            runs,
            clock);
    try (SessionMaintenance m =
        new SessionMaintenance.Tasks()
            .daily(signalling, Runnable::run)
            .build(clock, new DailySchedule(LocalTime.of(2, 0), Duration.ZERO))) {
      m.start();
      assertThat(ran.await(10, TimeUnit.SECONDS)).as("the catch-up ran").isTrue();
    }
    assertThat(runs.lastCompleted(DailyCleanup.JOB)).contains(clock.instant());
  }

  @Test
  void itKeepsTheTasksItWasHandedInOrder() {
    Runnable nothing = () -> {};
    try (SessionMaintenance m =
        new SessionMaintenance.Tasks()
            .every("idle reaper", Duration.ofSeconds(60), nothing)
            .every("channel cleanup", Duration.ofMinutes(5), nothing)
            .daily(cleanup, Runnable::run)
            .build(clock, DailySchedule.at(LocalTime.of(2, 0)))) {
      assertThat(m.periodic())
          .extracting(SessionMaintenance.Periodic::name, SessionMaintenance.Periodic::interval)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("idle reaper", Duration.ofSeconds(60)),
              org.assertj.core.groups.Tuple.tuple("channel cleanup", Duration.ofMinutes(5)));
      assertThat(m.daily().tasks())
          .extracting(DailyCleanup.Task::deletes)
          .containsExactly("records");
    }
    assertThatThrownBy(() -> new SessionMaintenance.Periodic("reaper", Duration.ZERO, nothing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reaper")
        .hasMessageContaining("positive");
  }
}
