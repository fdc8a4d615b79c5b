package dev.legio.session;

import dev.legio.backend.http.ConversationStore;
import dev.legio.config.SessionSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background work of a long-running Legio: the idle reaper (every {@link
 * SessionSettings#reaperInterval()}), the channel cleanup (every {@link
 * SessionSettings.Channels#cleanupInterval()}) and the daily cleanup (at {@link
 * SessionSettings#cleanupAt()} UTC, {@link #dailyCleanup()}): expired session records, then the
 * HTTP back-ends' stored conversations inactive for longer than the longest session TTL, then the
 * tasks the composition root adds ({@link #alsoDaily}, such as pruning the usage ledger). A failing
 * run is logged and the schedule goes on.
 */
public final class SessionMaintenance implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionMaintenance.class);

  private final SessionEngine engine;
  private final SessionSettings settings;
  private final Clock clock;
  private final ConversationStore conversations;
  private final List<DailyTask> dailyTasks = new ArrayList<>();
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("legio-maintenance").daemon().factory());

  /** Maintenance without stored conversations to clean up. */
  public SessionMaintenance(SessionEngine engine, SessionSettings settings, Clock clock) {
    this(engine, settings, clock, null);
  }

  /**
   * @param conversations the HTTP back-ends' conversations, cleaned up daily; null if none
   */
  public SessionMaintenance(
      SessionEngine engine,
      SessionSettings settings,
      Clock clock,
      ConversationStore conversations) {
    this.engine = engine;
    this.settings = settings;
    this.clock = clock;
    this.conversations = conversations;
  }

  /** A task of the daily cleanup, named for the log. */
  private record DailyTask(String what, Runnable task) {}

  /**
   * Adds {@code task} to the daily cleanup, run after the session records and conversations (call
   * before {@link #start}); {@code what} names it in the log when it fails.
   */
  public synchronized SessionMaintenance alsoDaily(String what, Runnable task) {
    dailyTasks.add(new DailyTask(what, task));
    return this;
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
          dailyCleanup();
          scheduleDailyCleanup();
        },
        delay.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /**
   * The daily cleanup, run now: deletes the expired session records, then the stored conversations
   * with no activity since now minus {@link SessionSettings#longestTtl()} (a session record that is
   * still kept may resume only a conversation younger than that), then the tasks added by {@link
   * #alsoDaily}. Each part is logged on failure without stopping the others.
   */
  public void dailyCleanup() {
    run("session record cleanup", engine::deleteExpiredRecords);
    if (conversations != null) {
      run("conversation cleanup", this::deleteInactiveConversations);
    }
    List<DailyTask> tasks;
    synchronized (this) {
      tasks = List.copyOf(dailyTasks);
    }
    for (DailyTask t : tasks) {
      run(t.what(), t.task());
    }
  }

  private void deleteInactiveConversations() {
    Duration ttl = settings.longestTtl();
    int deleted = conversations.deleteInactiveBefore(clock.instant().minus(ttl));
    log.info("deleted {} conversations inactive for more than {} days", deleted, ttl.toDays());
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
