package dev.legio.app;

import dev.legio.config.SessionSettings;
import dev.legio.session.DailyCleanup;
import dev.legio.session.DailySchedule;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionMaintenance;
import dev.legio.session.SingletonJobs;
import java.time.Clock;
import java.util.List;

/**
 * What {@code legio serve} does in the background, and on how many nodes.
 *
 * <p>Rules: the idle reaper, the channel cleanup and the task sessions' idle processes run on every
 * node at their intervals, since each node closes only the sessions it holds live (its own back-end
 * processes). The {@link #dailyCleanup daily cleanup} runs daily at {@code [sessions] cleanup_at}
 * UTC, and soon after a start when the run due before it was missed ({@link DailySchedule}), on one
 * node only (the holder of the {@link DailyCleanup#JOB} job, see {@link SingletonJobs}); {@code
 * legio cleanup} runs the same tasks on demand.
 */
final class MaintenancePlan {
  /** The singleton job the daily cleanup runs under. */
  static final String DAILY_CLEANUP_JOB = DailyCleanup.JOB;

  private MaintenancePlan() {}

  /** The tasks, built but not started. */
  static SessionMaintenance of(LegioApp app, Clock clock) {
    SessionSettings s = app.config().sessions();
    SessionEngine e = app.engine();
    SingletonJobs jobs = app.singletonJobs();
    return new SessionMaintenance.Tasks()
        .every(
            "idle reaper",
            s.reaperInterval(),
            SessionMaintenance.reporting("idle sessions reaped", e::reapIdle))
        .every(
            "channel cleanup",
            s.channels().cleanupInterval(),
            SessionMaintenance.reporting("idle channel sessions closed", e::cleanupChannels))
        .every(
            "idle task processes",
            s.reaperInterval(),
            SessionMaintenance.reporting(
                "idle task sessions' processes closed", () -> app.tasks().closeIdle()))
        .daily(dailyCleanup(app, clock), task -> jobs.runIfHolder(DAILY_CLEANUP_JOB, task))
        .build(clock, DailySchedule.at(s.cleanupAt()));
  }

  /**
   * The daily cleanup, in order: the expired session records, the expired task sessions with their
   * stored conversations, the HTTP back-ends' conversations inactive for longer than the longest
   * session time to live (a record still kept may resume only a younger one), the usage ledger's
   * turns older than its retention, and the chat gateways' expired delivery ids.
   */
  static DailyCleanup dailyCleanup(LegioApp app, Clock clock) {
    SessionSettings s = app.config().sessions();
    return new DailyCleanup(
        List.of(
            new DailyCleanup.Task(
                "expired session records", () -> app.sessions().deleteExpired(clock.instant())),
            new DailyCleanup.Task("expired task sessions", () -> app.tasks().deleteExpired()),
            new DailyCleanup.Task(
                "conversations inactive for more than " + s.longestTtl().toDays() + " days",
                () ->
                    app.conversations()
                        .deleteInactiveBefore(clock.instant().minus(s.longestTtl()))),
            new DailyCleanup.Task(
                "usage ledger rows older than " + app.usageRetention().keepFor().toDays() + " days",
                app::pruneUsage),
            new DailyCleanup.Task(
                "expired gateway deliveries",
                () -> app.store().deliveries().deleteExpired(clock.instant()))),
        app.store().jobRuns(),
        clock);
  }
}
