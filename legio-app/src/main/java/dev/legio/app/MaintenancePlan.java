package dev.legio.app;

import dev.legio.config.SessionSettings;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionMaintenance;
import dev.legio.session.SingletonJobs;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code legio serve} does in the background, and on how many nodes.
 *
 * <p>Rules: the idle reaper, the channel cleanup and the task sessions' idle processes run on every
 * node at their intervals, since each node closes only the sessions it holds live (its own back-end
 * processes). Daily at {@code [sessions] cleanup_at} UTC, on one node only (the holder of the
 * {@link #DAILY_CLEANUP_JOB} job, see {@link SingletonJobs}): the expired session records, the
 * expired task sessions with their stored conversations, the HTTP back-ends' conversations inactive
 * for longer than the longest session time to live (a record still kept may resume only a younger
 * one), the usage ledger's old turns, and the chat gateways' expired delivery ids.
 */
final class MaintenancePlan {
  private static final Logger log = LoggerFactory.getLogger(MaintenancePlan.class);

  /** The singleton job the daily cleanups run under. */
  static final String DAILY_CLEANUP_JOB = "daily-cleanup";

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
        .daily("session record cleanup", jobs.singleton(DAILY_CLEANUP_JOB, e::deleteExpiredRecords))
        .daily(
            "task session cleanup",
            jobs.singleton(DAILY_CLEANUP_JOB, () -> app.tasks().deleteExpired()))
        .daily(
            "conversation cleanup",
            jobs.singleton(
                DAILY_CLEANUP_JOB, () -> deleteInactiveConversations(app, s.longestTtl(), clock)))
        .daily("usage ledger pruning", jobs.singleton(DAILY_CLEANUP_JOB, app::pruneUsage))
        .daily(
            "gateway deliveries cleanup",
            jobs.singleton(
                DAILY_CLEANUP_JOB, () -> app.store().deliveries().deleteExpired(clock.instant())))
        .build(clock, s.cleanupAt());
  }

  private static void deleteInactiveConversations(LegioApp app, Duration ttl, Clock clock) {
    int deleted = app.conversations().deleteInactiveBefore(clock.instant().minus(ttl));
    log.info("deleted {} conversations inactive for more than {} days", deleted, ttl.toDays());
  }
}
