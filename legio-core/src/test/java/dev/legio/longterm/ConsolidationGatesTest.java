package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.transcript.TranscriptInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsolidationGatesTest {
  private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
  private final ConsolidationGates gates = new ConsolidationGates(24, 5, Duration.ofHours(1));

  @ParameterizedTest(name = "last run {0} min ago, force={1}: {2}")
  @CsvSource(
      nullValues = "never",
      value = {
        "never, false, open",
        "1439, false, last run 23 h ago; needs 24 h",
        "1440, false, open",
        "3000, false, open",
        "59, false, last run 59 min ago; needs 24 h",
        "0, false, last run 0 min ago; needs 24 h",
        "-30, false, last run 0 min ago; needs 24 h",
        "10, true, open",
      })
  void theTimeGateOpensAfterDreamMinHours(Long minutesAgo, boolean force, String expected) {
    Instant last = minutesAgo == null ? null : NOW.minus(Duration.ofMinutes(minutesAgo));
    Optional<ConsolidationGates.Closed> closed = gates.time(last, NOW, force);
    if (expected.equals("open")) {
      assertThat(closed).isEmpty();
    } else {
      assertThat(closed).contains(new ConsolidationGates.Closed(ConsolidationGate.TIME, expected));
    }
  }

  @ParameterizedTest(name = "{0} changed, ever run={1}, force={2}: {3}")
  @CsvSource({
    "0, false, false, 0 sessions changed; needs 5",
    "1, true, false, 1 session changed since the last run; needs 5",
    "4, true, false, 4 sessions changed since the last run; needs 5",
    "5, true, false, open",
    "9, false, false, open",
    "0, true, true, open",
  })
  void theSessionsGateOpensAtDreamMinSessions(
      int changed, boolean everRun, boolean force, String expected) {
    Instant last = everRun ? NOW.minus(Duration.ofDays(2)) : null;
    Optional<ConsolidationGates.Closed> closed = gates.sessions(changed, last, force);
    if (expected.equals("open")) {
      assertThat(closed).isEmpty();
    } else {
      assertThat(closed)
          .contains(new ConsolidationGates.Closed(ConsolidationGate.SESSIONS, expected));
    }
  }

  @Test
  void changedSessionsAreTheAgentsModifiedAfterTheLastRun() {
    Instant last = NOW.minus(Duration.ofHours(30));
    List<TranscriptInfo> all =
        List.of(
            info("a", "vorenus", NOW.minus(Duration.ofHours(1))),
            info("b", "pullo", NOW.minus(Duration.ofHours(1))),
            info("c", "vorenus", last),
            info("d", "vorenus", last.minusSeconds(1)),
            info("e", "vorenus", last.plusSeconds(1)),
            info("f", null, NOW));

    assertThat(ConsolidationGates.changedSessions(all, "vorenus", last))
        .extracting(TranscriptInfo::sessionId)
        .containsExactly("a", "e");
    assertThat(ConsolidationGates.changedSessions(all, "vorenus", null))
        .extracting(TranscriptInfo::sessionId)
        .containsExactly("a", "c", "d", "e");
  }

  @Test
  void aLiveLockClosesTheLockGateNamingItsHolderAndWhenItTurnsStale() {
    Path file = Path.of("/castra/memory/vorenus/.consolidation_lock");
    var holder =
        new ConsolidationLockHolder("castra-1", 4242, Instant.parse("2026-11-23T11:30:00Z"));
    var held = new ConsolidationLock.Held(file, NOW.minus(Duration.ofMinutes(25)), holder);
    assertThat(gates.held(held, NOW))
        .isEqualTo(
            new ConsolidationGates.Closed(
                ConsolidationGate.LOCK,
                "another consolidation is running since 2026-11-23 11:35 UTC (25 min ago, by pid"
                    + " 4242 on castra-1 (started 2026-11-23T11:30:00Z)); its lock"
                    + " /castra/memory/vorenus/.consolidation_lock turns stale when not renewed for"
                    + " 60 min; if that process is known to be gone, delete the file"));
    assertThat(gates.held(new ConsolidationLock.Held(file, NOW, null), NOW).reason())
        .contains("(0 min ago, by a process its lock does not name)");
  }

  @Test
  void aTakeOverSaysWhetherTheLockWasStaleOrItsHolderHadEnded() {
    Instant at = Instant.parse("2026-11-23T09:00:00Z");
    assertThat(ConsolidationGates.tookOver(new ConsolidationLock.Replaced(at, null, false)))
        .isEqualTo("took over a stale lock from 2026-11-23 09:00 UTC (a run that crashed or hung)");
    var holder = new ConsolidationLockHolder("castra-1", 4242, null);
    assertThat(ConsolidationGates.tookOver(new ConsolidationLock.Replaced(at, holder, true)))
        .isEqualTo(
            "took over the lock taken 2026-11-23 09:00 UTC by pid 4242 on castra-1: that process"
                + " has ended (killed or crashed)");
  }

  @ParameterizedTest
  @CsvSource({"-5, 0 min", "0, 0 min", "59, 59 min", "60, 1 h", "1499, 24 h"})
  void agesAreWholeMinutesUnderAnHourThenWholeHours(long minutes, String shown) {
    assertThat(ConsolidationGates.ago(Duration.ofMinutes(minutes))).isEqualTo(shown);
  }

  private static TranscriptInfo info(String id, String owner, Instant modified) {
    return new TranscriptInfo(id, owner, 1, modified, modified, 100, 1);
  }
}
