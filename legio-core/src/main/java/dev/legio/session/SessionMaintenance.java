package dev.legio.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background work of a long-running Legio: the idle reaper (every {@link
 * SessionSettings#reaperInterval()}), the channel cleanup (every {@link
 * SessionSettings.Channels#cleanupInterval()}) and the daily deletion of expired session records
 * (at {@link SessionSettings#cleanupAt()} UTC). A failing run is logged and the schedule goes on.
 */
public final class SessionMaintenance implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionMaintenance.class);

  private final SessionEngine engine;
  private final SessionSettings settings;
  private final Clock clock;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("legio-maintenance").daemon().factory());

  public SessionMaintenance(SessionEngine engine, SessionSettings settings, Clock clock) {
    this.engine = engine;
    this.settings = settings;
    this.clock = clock;
  }

  /** Starts the schedules. */
  public void start() {
    long reap = settings.reaperInterval().toMillis();
    scheduler.scheduleWithFixedDelay(
        () -> run("idle reaper", () -> reported("idle sessions reaped", engine.reapIdle())),
        reap,
        reap,
        TimeUnit.MILLISECONDS);
    long channels = settings.channels().cleanupInterval().toMillis();
    scheduler.scheduleWithFixedDelay(
        () ->
            run(
                "channel cleanup",
                () -> reported("idle channel sessions closed", engine.cleanupChannels())),
        channels,
        channels,
        TimeUnit.MILLISECONDS);
    scheduleDailyCleanup();
  }

  private void scheduleDailyCleanup() {
    Duration delay = untilNext(clock.instant(), settings.cleanupAt());
    log.info(
        "expired session records will be deleted at {} UTC (in {})", settings.cleanupAt(), delay);
    scheduler.schedule(
        () -> {
          run("session record cleanup", engine::deleteExpiredRecords);
          scheduleDailyCleanup();
        },
        delay.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** The time from {@code now} to the next {@code at} (UTC); a full day when {@code now} is it. */
  public static Duration untilNext(Instant now, LocalTime at) {
    ZonedDateTime utc = now.atZone(ZoneOffset.UTC);
    ZonedDateTime next = utc.with(at);
    if (!next.isAfter(utc)) {
      next = next.plusDays(1);
    }
    return Duration.between(utc, next);
  }

  private static void reported(String what, int n) {
    if (n > 0) {
      log.info("{}: {}", what, n);
    }
  }

  private static void run(String what, Runnable task) {
    try {
      task.run();
    } catch (RuntimeException e) {
      log.error("{} failed; it will run again at its next time", what, e);
    }
  }

  /** Stops the schedules, waiting for a run in progress. */
  @Override
  public void close() {
    scheduler.shutdownNow();
    try {
      scheduler.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
