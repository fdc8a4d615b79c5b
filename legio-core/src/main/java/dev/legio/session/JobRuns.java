package dev.legio.session;

import java.time.Instant;
import java.util.Optional;

/**
 * When each background job last completed a run, kept in the same database as the job leases: a
 * restart does not forget it, and every node sharing the database reads the same time ({@link
 * DailyCleanup} records its runs here, and its catch-up reads them).
 *
 * <p>Rules every implementation keeps:
 *
 * <ol>
 *   <li>{@link #lastCompleted} is empty until a run of the job was recorded.
 *   <li>{@link #completed} keeps the later of the time stored and the time given: a run that ends
 *       after another but started before it never moves the time back.
 * </ol>
 *
 * Implementations are thread-safe.
 */
public interface JobRuns {
  /** When a run of {@code job} last completed; empty when none was recorded. */
  Optional<Instant> lastCompleted(String job);

  /** Records that a run of {@code job} completed at {@code at}. */
  void completed(String job, Instant at);
}
