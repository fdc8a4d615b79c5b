package dev.legio.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background work of a long-running Legio, on one thread of its own. It knows no task: the
 * composition root hands them in (the idle reaper, the channel cleanup, the {@link DailyCleanup}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A periodic task runs every {@code interval}, the first time one interval after {@link
 *       #start()}; the next run is timed from the end of the last.
 *   <li>The daily cleanup runs when its {@link DailySchedule} says: every day at its time (UTC),
 *       and, when the run due before the start was missed (it never completed since that time, on
 *       any node sharing the store), once its catch-up delay after {@link #start()} ({@link
 *       #catchUp()}). {@link #dailyCleanup()} runs it now.
 *   <li>Every run of the daily cleanup, the catch-up's check included, goes through the gate it was
 *       handed ({@code legio serve}: the node holding the {@link DailyCleanup#JOB} job, see {@link
 *       SingletonJobs}), so the node that runs it is the one that decides whether a catch-up is
 *       still due.
 *   <li>A failing run is logged and the schedule goes on.
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

  private final Clock clock;
  private final DailySchedule schedule;
  private final List<Periodic> periodic;
  private final DailyCleanup daily;
  private final Consumer<Runnable> gate;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("legio-maintenance").daemon().factory());

  /**
   * @param clock the time the daily runs are computed from
   * @param schedule when the daily cleanup runs
   * @param daily the daily cleanup; null for none
   * @param gate runs a daily run, or skips it on a node that is not to run it
   */
  public SessionMaintenance(
      Clock clock,
      DailySchedule schedule,
      List<Periodic> periodic,
      DailyCleanup daily,
      Consumer<Runnable> gate) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.schedule = Objects.requireNonNull(schedule, "schedule");
    this.periodic = List.copyOf(periodic);
    this.daily = daily;
    this.gate = Objects.requireNonNull(gate, "gate");
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

  /** The daily cleanup; null when there is none. */
  public DailyCleanup daily() {
    return daily;
  }

  /** When the daily cleanup runs. */
  public DailySchedule schedule() {
    return schedule;
  }

  /**
   * Starts the schedules; returns at once (the catch-up's check runs on the maintenance thread).
   */
  public void start() {
    for (Periodic p : periodic) {
      long every = p.interval().toMillis();
      scheduler.scheduleWithFixedDelay(
          () -> run(p.name(), p.task()), every, every, TimeUnit.MILLISECONDS);
    }
    if (daily != null) {
      scheduler.schedule(
          () -> run("the daily cleanup's catch-up", this::catchUp),
          schedule.catchUpDelay().toMillis(),
          TimeUnit.MILLISECONDS);
      scheduleDailyCleanup();
    }
  }

  private void scheduleDailyCleanup() {
    Duration delay = schedule.untilNext(clock.instant());
    log.info(
        "the daily cleanup ({}) will run at {} UTC (in {}); a run missed before this start is made"
            + " up in {}",
        String.join(", ", daily.tasks().stream().map(DailyCleanup.Task::deletes).toList()),
        schedule.at(),
        delay,
        schedule.catchUpDelay());
    scheduler.schedule(
        () -> {
          run("the daily cleanup", this::dailyCleanup);
          scheduleDailyCleanup();
        },
        delay.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** The daily cleanup, run now through the gate. */
  public void dailyCleanup() {
    if (daily != null) {
      gate.accept(daily::run);
    }
  }

  /**
   * Through the gate: runs the daily cleanup now when the run due by now was missed ({@link
   * DailySchedule#missed}); true when it ran. Read where it runs, so a run another node completed
   * meanwhile is seen.
   */
  public boolean catchUp() {
    if (daily == null) {
      return false;
    }
    AtomicBoolean ran = new AtomicBoolean();
    gate.accept(
        () -> {
          Instant now = clock.instant();
          java.util.Optional<Instant> last = daily.lastCompleted();
          if (!schedule.missed(now, last)) {
            return;
          }
          log.info(
              "the daily cleanup {}: running it now",
              last.map(
                      t ->
                          "last completed at "
                              + t
                              + ", before the run due at "
                              + schedule.lastDue(now))
                  .orElse("never completed"));
          daily.run();
          ran.set(true);
        });
    return ran.get();
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
    private DailyCleanup daily;
    private Consumer<Runnable> gate = Runnable::run;

    public Tasks every(String name, Duration interval, Runnable task) {
      periodic.add(new Periodic(name, interval, task));
      return this;
    }

    /**
     * The daily cleanup, each of its runs through {@code gate} (which runs it, or skips it on a
     * node that is not to run it).
     */
    public Tasks daily(DailyCleanup cleanup, Consumer<Runnable> gate) {
      this.daily = Objects.requireNonNull(cleanup, "cleanup");
      this.gate = Objects.requireNonNull(gate, "gate");
      return this;
    }

    /** The maintenance running these tasks, the daily cleanup as {@code schedule} says. */
    public SessionMaintenance build(Clock clock, DailySchedule schedule) {
      return new SessionMaintenance(clock, schedule, periodic, daily, gate);
    }
  }
}
