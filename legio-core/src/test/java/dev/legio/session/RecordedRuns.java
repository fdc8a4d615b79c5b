package dev.legio.session;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link JobRuns} in memory, for tests of what uses it (the stores run {@code JobRunsContract}).
 */
final class RecordedRuns implements JobRuns {
  private final Map<String, Instant> completed = new ConcurrentHashMap<>();

  @Override
  public Optional<Instant> lastCompleted(String job) {
    return Optional.ofNullable(completed.get(job));
  }

  @Override
  public void completed(String job, Instant at) {
    completed.merge(job, at, (a, b) -> a.isAfter(b) ? a : b);
  }
}
