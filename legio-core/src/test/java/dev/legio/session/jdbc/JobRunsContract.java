package dev.legio.session.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.session.DailyCleanup;
import dev.legio.session.DailySchedule;
import dev.legio.session.HeldLeases;
import dev.legio.session.JobRuns;
import dev.legio.session.SessionMaintenance;
import dev.legio.session.SingletonJobs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link JdbcJobRuns}, and the daily cleanup's catch-up on it: when the cleanup last completed
 * outlives a restart and is shared by every node on the database, so a restart after the cleanup
 * time makes up a missed run once, on one node. Each database's test class says how to open a store
 * on it.
 */
public abstract class JobRunsContract {
  private static final Duration TTL = Duration.ofSeconds(30);

  protected final MutableClock clock = MutableClock.at("2026-11-23T09:00:00Z");
  private final List<LegioStore> opened = new ArrayList<>();

  /** Opens a store on the database under test, anew each call (another node, or a restart). */
  protected abstract LegioStore open(MutableClock clock);

  /** Runs after every store of the test is closed. */
  protected void afterStoresClosed() {}

  @AfterEach
  void closeStores() {
    try {
      opened.forEach(LegioStore::close);
    } finally {
      afterStoresClosed();
    }
  }

  private LegioStore store() {
    LegioStore store = open(clock);
    opened.add(store);
    return store;
  }

  @Test
  void aRunIsKeptAcrossARestartAndSeenByEveryNode() {
    LegioStore first = store();
    assertThat(first.jobRuns().lastCompleted("daily-cleanup")).isEmpty();

    first.jobRuns().completed("daily-cleanup", Instant.parse("2026-11-23T02:00:01.5Z"));
    first.close();

    assertThat(store().jobRuns().lastCompleted("daily-cleanup"))
        .contains(Instant.parse("2026-11-23T02:00:01.5Z"));
    assertThat(store().jobRuns().lastCompleted("another-job")).isEmpty();
  }

  @Test
  void theTimeNeverMovesBack() {
    JobRuns runs = store().jobRuns();
    runs.completed("daily-cleanup", Instant.parse("2026-11-23T02:00:05Z"));
    runs.completed("daily-cleanup", Instant.parse("2026-11-23T02:00:03Z"));
    assertThat(runs.lastCompleted("daily-cleanup")).contains(Instant.parse("2026-11-23T02:00:05Z"));
    runs.completed("daily-cleanup", Instant.parse("2026-11-24T02:00:00Z"));
    assertThat(runs.lastCompleted("daily-cleanup")).contains(Instant.parse("2026-11-24T02:00:00Z"));
  }

  /** One node of {@code legio serve}: its store, its job leases, its maintenance. */
  private record Node(SingletonJobs jobs, SessionMaintenance maintenance, List<String> ran) {}

  private Node node(String name) {
    LegioStore store = store();
    SingletonJobs jobs =
        new SingletonJobs(store.jobLeases(), name, TTL, clock, new HeldLeases(false), null);
    List<String> ran = new ArrayList<>();
    DailyCleanup cleanup =
        new DailyCleanup(
            List.of(
                new DailyCleanup.Task(
                    "expired things",
                    () -> {
                      ran.add(clock.instant().toString());
                      return 0;
                    })),
            store.jobRuns(),
            clock);
    SessionMaintenance maintenance =
        new SessionMaintenance.Tasks()
            .daily(cleanup, task -> jobs.runIfHolder(DailyCleanup.JOB, task))
            .build(clock, DailySchedule.at(LocalTime.of(2, 0)));
    return new Node(jobs, maintenance, ran);
  }

  @Test
  void nodesRestartedAfterTheCleanupTimeMakeUpTheMissedRunOnceOnOneNode() {
    // A deploy at 09:00: both nodes start; the cleanup never ran.
    Node a = node("node-a");
    Node b = node("node-b");
    assertThat(a.maintenance().catchUp()).isTrue();
    assertThat(b.maintenance().catchUp()).isFalse(); // node-a holds the job

    // node-a is replaced by the next deploy: node-b takes the job, and sees node-a's run.
    a.jobs().handBack();
    a.maintenance().close();
    clock.advance(Duration.ofMinutes(5));
    assertThat(b.maintenance().catchUp()).isFalse();
    Node a2 = node("node-a2");
    assertThat(a2.maintenance().catchUp()).isFalse();

    // The next day's deploy at 09:00, every node restarted after 02:00 came and went unseen.
    b.jobs().handBack();
    a2.jobs().handBack();
    clock.set(Instant.parse("2026-11-24T09:00:00Z"));
    Node b2 = node("node-b2");
    Node a3 = node("node-a3");
    assertThat(b2.maintenance().catchUp()).isTrue();
    assertThat(a3.maintenance().catchUp()).isFalse();

    assertThat(a.ran()).containsExactly("2026-11-23T09:00:00Z");
    assertThat(b2.ran()).containsExactly("2026-11-24T09:00:00Z");
    assertThat(b.ran()).isEmpty();
    assertThat(a2.ran()).isEmpty();
    assertThat(a3.ran()).isEmpty();
    List.of(b, a2, b2, a3).forEach(n -> n.maintenance().close());
  }
}
