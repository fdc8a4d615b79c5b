package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.session.SessionMaintenance;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio cleanup}: the daily cleanup of {@code legio serve} run now, saying what it deleted,
 * and counted as the day's run by serve's catch-up; end to end through a real workspace with the
 * offline model, on a clock the test moves.
 */
class CleanupCommandTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private final MutableClock clock = MutableClock.at("2026-11-20T10:00:00Z");
  private String castra;

  private CliResult legio(String... args) {
    return CliResult.run(env, dir, clock, args);
  }

  @BeforeEach
  void init() {
    assertThat(legio("init", "legion").code()).isZero();
    castra = "--castra=" + dir.resolve("legion");
  }

  private static String line(String out, String first) {
    return Arrays.stream(out.split("\n"))
        .filter(l -> l.startsWith(first))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line for " + first + " in:\n" + out));
  }

  @Test
  void itDeletesWhatTheDailyCleanupDeletesAndSaysHowMany() {
    assertThat(legio(castra, "say", "-q", "@vorenus scout").code()).isZero();
    assertThat(legio(castra, "say", "-q", "@pullo hold").code()).isZero();

    CliResult young = legio(castra, "cleanup");
    assertThat(young.code()).as(young.err()).isZero();
    assertThat(line(young.out(), "expired session records")).endsWith(" 0");

    clock.advance(Duration.ofDays(31)); // past the offline model's ttl_days (30)
    CliResult r = legio(castra, "cleanup");

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("DELETED");
    assertThat(line(r.out(), "expired session records")).endsWith(" 2");
    assertThat(line(r.out(), "expired task sessions")).endsWith(" 0");
    assertThat(line(r.out(), "usage ledger rows older than 400 days")).endsWith(" 0");
    assertThat(r.out()).contains("Completed at 2026-12-21 10:00:00Z");
    assertThat(legio(castra, "status").out()).doesNotContain("active");
  }

  @Test
  void aRunOfTheCommandIsTheDaysRunForServesCatchUp() {
    Workspace workspace = new Workspace(dir.resolve("legion"));
    try (LegioApp app = LegioApp.open(workspace, env, clock)) {
      assertThat(app.dailyCleanup().lastCompleted()).isEmpty();
    }

    assertThat(legio(castra, "cleanup").code()).isZero();

    // legio serve started an hour later finds today's run done; tomorrow after 02:00 it is due.
    clock.advance(Duration.ofHours(1));
    try (LegioApp app = LegioApp.open(workspace, env, clock);
        SessionMaintenance maintenance = app.maintenance(clock)) {
      assertThat(app.dailyCleanup().lastCompleted())
          .contains(Instant.parse("2026-11-20T10:00:00Z"));
      assertThat(maintenance.catchUp()).isFalse();
      clock.set(Instant.parse("2026-11-21T09:00:00Z"));
      assertThat(maintenance.catchUp()).isTrue();
      assertThat(app.dailyCleanup().lastCompleted()).contains(clock.instant());
    }
  }

  @Test
  void aPartThatFailsIsSaidAndTheRunIsNotRecorded() throws Exception {
    assertThat(legio(castra, "status").code()).isZero(); // the database, migrated
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + dir.resolve("legion/castra/praetorium.db"));
        java.sql.Statement s = c.createStatement()) {
      s.execute("DROP TABLE usage_ledger");
    }

    CliResult r = legio(castra, "cleanup");

    assertThat(r.code()).isEqualTo(LegioCommand.FAILURE);
    assertThat(line(r.out(), "usage ledger rows")).contains("failed: ").contains("usage_ledger");
    assertThat(line(r.out(), "expired session records")).endsWith(" 0");
    assertThat(line(r.out(), "expired gateway deliveries")).endsWith(" 0");
    assertThat(r.out()).contains("The cleanup did not complete");
    try (LegioApp app = LegioApp.open(new Workspace(dir.resolve("legion")), env, clock)) {
      assertThat(app.dailyCleanup().lastCompleted()).isEmpty();
    }
  }
}
