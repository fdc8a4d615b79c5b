package dev.legio.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background work of a long-running Legio, on one thread of its own. It knows no task: the
 * composition root hands them in (the idle reaper, the channel cleanup, the daily cleanups).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A periodic task runs every {@code interval}, the first time one interval after {@link
 *       #start()}; the next run is timed from the end of the last.
 *   <li>The daily tasks run once a day at {@code dailyAt} UTC, in the order they were handed in
 *       ({@link #dailyCleanup()} runs them now).
 *   <li>A failing run is logged and the schedule goes on; a failing daily task does not stop the
 *       next one.
 * </ul>
 */
public final class SessionMaintenance implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionMaintenance.class);

  /** A task run every {@code interval}. */
  public record Periodic(String name, Duration interval, Runnable task) {
    public Periodic {
      Objects.requireNonNull(name, "name");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException(name + ": the interval must be positive: " + interval);
      }
      Objects.requireNonNull(task, "task");
    }
  }

  /** A task run once a day. */
  public record Daily(String name, Runnable task) {
    public Daily {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(task, "task");
    }
  }

  private final Clock clock;
  private final LocalTime dailyAt;
  private final List<Periodic> periodic;
  private final List<Daily> daily;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("legio-maintenance").daemon().factory());

  /**
   * @param clock the time the next daily run is computed from
   * @param dailyAt the time of day (UTC) of the daily tasks
   */
  public SessionMaintenance(
      Clock clock, LocalTime dailyAt, List<Periodic> periodic, List<Daily> daily) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.dailyAt = Objects.requireNonNull(dailyAt, "dailyAt");
    this.periodic = List.copyOf(periodic);
    this.daily = List.copyOf(daily);
  }

  /** A task that logs {@code what: n} when {@code count} did something ({@code n > 0}). */
  public static Runnable reporting(String what, IntSupplier count) {
    return () -> {
      int n = count.getAsInt();
      if (n > 0) {
        log.info("{}: {}", what, n);
      }
    };
  }

  /** The periodic tasks, in the order they were handed in. */
  public List<Periodic> periodic() {
    return periodic;
  }

  /** The daily tasks, in the order they run. */
  public List<Daily> daily() {
    return daily;
  }

  /** Starts the schedules. */
  public void start() {
    for (Periodic p : periodic) {
      long every = p.interval().toMillis();
      scheduler.scheduleWithFixedDelay(
          () -> run(p.name(), p.task()), every, every, TimeUnit.MILLISECONDS);
    }
    if (!daily.isEmpty()) {
      scheduleDailyCleanup();
    }
  }

  private void scheduleDailyCleanup() {
    Duration delay = untilNext(clock.instant(), dailyAt);
    log.info(
        "the daily cleanup ({}) will run at {} UTC (in {})",
        String.join(", ", daily.stream().map(Daily::name).toList()),
        dailyAt,
        delay);
    scheduler.schedule(
        () -> {
          dailyCleanup();
          scheduleDailyCleanup();
        },
        delay.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** The daily tasks, run now in order; each is logged on failure without stopping the others. */
  public void dailyCleanup() {
    for (Daily d : daily) {
      run(d.name(), d.task());
    }
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

  /** Collects the tasks in order: {@code new SessionMaintenance.Tasks().every(...).daily(...)}. */
  public static final class Tasks {
    private final List<Periodic> periodic = new ArrayList<>();
    private final List<Daily> daily = new ArrayList<>();

    public Tasks every(String name, Duration interval, Runnable task) {
      periodic.add(new Periodic(name, interval, task));
      return this;
    }

    public Tasks daily(String name, Runnable task) {
      daily.add(new Daily(name, task));
      return this;
    }

    /** The maintenance running these tasks, its daily ones at {@code dailyAt} UTC. */
    public SessionMaintenance build(Clock clock, LocalTime dailyAt) {
      return new SessionMaintenance(clock, dailyAt, periodic, daily);
    }
  }
}
