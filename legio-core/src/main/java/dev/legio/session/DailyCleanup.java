package dev.legio.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daily cleanup: tasks that each delete what has outlived its time and say how many, run in
 * order. {@code legio serve} runs it daily and when it catches up ({@link SessionMaintenance},
 * {@link DailySchedule}); {@code legio cleanup} runs it on demand. The composition root hands the
 * tasks in; this type knows none.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #run} runs every task in order; a task that fails is logged and does not stop the
 *       next.
 *   <li>When every task succeeded, the run's end is recorded in {@link JobRuns} as job {@link
 *       #JOB}: a restart, and every node on the same database, knows when the cleanup last
 *       completed. A run with a failed task is not recorded, so a catch-up makes it up.
 *   <li>It knows nothing of nodes: whoever calls {@link #run} runs it ({@code legio serve} on one
 *       node at a time, through {@link SingletonJobs}; the tasks tolerate a second run at once).
 * </ul>
 */
public final class DailyCleanup {
  private static final Logger log = LoggerFactory.getLogger(DailyCleanup.class);

  /** The job the daily cleanup is: its lease in {@link JobLeases}, its runs in {@link JobRuns}. */
  public static final String JOB = "daily-cleanup";

  /**
   * One task of the cleanup.
   *
   * @param deletes what it deletes, as a person reads it ({@code expired session records})
   * @param task deletes them, returning how many
   */
  public record Task(String deletes, IntSupplier task) {
    public Task {
      Objects.requireNonNull(deletes, "deletes");
      Objects.requireNonNull(task, "task");
    }
  }

  /**
   * What one task did.
   *
   * @param deleted how many it deleted; 0 when it failed
   * @param failure why it failed; null when it did not
   */
  public record Outcome(String deletes, int deleted, String failure) {
    public boolean failed() {
      return failure != null;
    }
  }

  /**
   * What a run did.
   *
   * @param recorded true when the run was recorded as completed ({@link JobRuns})
   */
  public record Report(Instant started, Duration took, List<Outcome> outcomes, boolean recorded) {
    public Report {
      outcomes = List.copyOf(outcomes);
    }

    /** True when every task succeeded. */
    public boolean complete() {
      return outcomes.stream().noneMatch(Outcome::failed);
    }
  }

  private final List<Task> tasks;
  private final JobRuns runs;
  private final Clock clock;

  public DailyCleanup(List<Task> tasks, JobRuns runs, Clock clock) {
    this.tasks = List.copyOf(tasks);
    this.runs = Objects.requireNonNull(runs, "runs");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The tasks, in the order they run. */
  public List<Task> tasks() {
    return tasks;
  }

  /** When a run last completed (on any node sharing the database); empty when none ever did. */
  public Optional<Instant> lastCompleted() {
    return runs.lastCompleted(JOB);
  }

  /** Runs every task now, in order, and records the run when all succeeded; see the rules. */
  public Report run() {
    Instant started = clock.instant();
    List<Outcome> outcomes = new ArrayList<>();
    for (Task t : tasks) {
      try {
        outcomes.add(new Outcome(t.deletes(), t.task().getAsInt(), null));
      } catch (RuntimeException e) {
        log.error("daily cleanup: deleting {} failed", t.deletes(), e);
        outcomes.add(new Outcome(t.deletes(), 0, dev.legio.errors.FailureText.of(e)));
      }
    }
    Instant ended = clock.instant();
    boolean complete = outcomes.stream().noneMatch(Outcome::failed);
    boolean recorded = false;
    if (complete) {
      try {
        runs.completed(JOB, ended);
        recorded = true;
      } catch (RuntimeException e) {
        log.warn("daily cleanup: recording that it completed failed", e);
      }
    }
    Report report = new Report(started, Duration.between(started, ended), outcomes, recorded);
    log.info(
        "daily cleanup {}: {}",
        complete ? "done" : "done with failures (it runs again at its next time)",
        outcomes.stream()
            .map(o -> o.deletes() + " " + (o.failed() ? "failed" : o.deleted()))
            .collect(Collectors.joining(", ")));
    return report;
  }
}
