package dev.legio.usage;

import static dev.legio.usage.LedgerRows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The rules of {@link KeptRows}, with time moved by the test. */
class KeptRowsTest {
  private final AtomicLong now = new AtomicLong();
  private final KeptRows kept = new KeptRows(1, now::get);

  @Test
  void rowsDroppedPastTheLimitAreWarnedOfAtMostOnceAMinuteCountingThoseDroppedSinceTheLast() {
    LedgerEntry vorenus = row("vorenus");
    LedgerEntry pullo = row("pullo");
    Optional<KeptRows.Dropped> first;
    try (LogCapture logs = new LogCapture(RetryingUsageWriter.class.getName())) {
      first = kept.addAll(List.of(vorenus, pullo), "database is locked");
      now.addAndGet(Duration.ofSeconds(30).toNanos());
      kept.addAll(List.of(row("legatus")), "database is locked");
      now.addAndGet(Duration.ofSeconds(29).toNanos());
      kept.addAll(List.of(row("lucius")), "database is locked");
      String beforeAMinute = logs.warningsAndErrors();
      now.addAndGet(Duration.ofSeconds(1).toNanos());
      kept.addAll(List.of(row("titus")), "database is locked");

      assertThat(beforeAMinute)
          .as("warned once in the first minute, though the ticker began at 0")
          .isEqualTo(warning(1));
      assertThat(logs.warningsAndErrors())
          .as("a minute after, the rows dropped since, counted")
          .isEqualTo(warning(1) + "\n" + warning(3));
    }
    assertThat(first)
        .contains(
            new KeptRows.Dropped(
                1, vorenus, "more than 1 turns waited to be written (database is locked)"));
    assertThat(kept.takeAll()).extracting(LedgerEntry::owner).containsExactly("titus");
  }

  @Test
  void rowsWithinTheLimitDropNone() {
    assertThat(kept.addAll(List.of(row("vorenus")), "database is locked")).isEmpty();
    assertThat(kept.putBack(List.of(), "database is locked")).isEmpty();
    assertThat(kept.size()).isEqualTo(1);
  }

  private static String warning(int turns) {
    return "the usage of "
        + turns
        + " turns was dropped unrecorded: more than 1 waited to be written while the database"
        + " failed (database is locked); legio usage will not count them";
  }
}
