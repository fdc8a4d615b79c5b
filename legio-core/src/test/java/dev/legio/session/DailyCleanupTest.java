package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.MutableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link DailyCleanup}: runs the tasks it is handed, says what they deleted, records its runs. */
class DailyCleanupTest {
  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  private final RecordedRuns runs = new RecordedRuns();

  private DailyCleanup cleanup(List<String> done, String failing) {
    List<DailyCleanup.Task> tasks = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      tasks.add(
          new DailyCleanup.Task(
              name,
              () -> {
                if (name.equals(failing)) {
                  throw new IllegalStateException(name + " failed");
                }
                done.add(name);
                return name.length() + done.size();
              }));
    }
    return new DailyCleanup(tasks, runs, clock);
  }

  @ParameterizedTest(name = "failing: {0}")
  @CsvSource(
      nullValues = "-",
      value = {"-, a b c", "a, b c", "b, a c", "c, a b"})
  void theTasksRunInOrderAndAFailingOneDoesNotStopTheNext(String failing, String ran) {
    List<String> done = new ArrayList<>();
    DailyCleanup cleanup = cleanup(done, failing);
    cleanup.run();
    cleanup.run();
    List<String> once = List.of(ran.split(" "));
    List<String> twice = new ArrayList<>(once);
    twice.addAll(once);
    assertThat(done).isEqualTo(twice);
  }

  @Test
  void aRunSaysWhatEachTaskDeletedAndIsRecordedAsCompleted() {
    DailyCleanup cleanup = cleanup(new ArrayList<>(), null);
    assertThat(cleanup.lastCompleted()).isEmpty();

    DailyCleanup.Report report = cleanup.run();

    assertThat(report.outcomes())
        .extracting(DailyCleanup.Outcome::deletes, DailyCleanup.Outcome::deleted)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", 2),
            org.assertj.core.groups.Tuple.tuple("b", 3),
            org.assertj.core.groups.Tuple.tuple("c", 4));
    assertThat(report.complete()).isTrue();
    assertThat(report.recorded()).isTrue();
    assertThat(cleanup.lastCompleted()).contains(Instant.parse("2026-11-21T09:00:00Z"));
  }

  @Test
  void aRunWithAFailedTaskIsNotRecordedSoACatchUpMakesItUp() {
    DailyCleanup cleanup = cleanup(new ArrayList<>(), "b");

    DailyCleanup.Report report = cleanup.run();

    assertThat(report.complete()).isFalse();
    assertThat(report.recorded()).isFalse();
    assertThat(report.outcomes().get(1).failure()).isEqualTo("b failed");
    assertThat(cleanup.lastCompleted()).isEmpty();
  }
}
