package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.session.SessionMaintenance;
import dev.legio.testing.MutableClock;
import dev.legio.usage.Grouping;
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
 * {@code legio usage} and the COST column of {@code legio status}, end to end through a real
 * workspace with the built-in offline model (which costs nothing), on a clock the test moves.
 */
class UsageCommandTest {
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
        .filter(l -> l.startsWith(first + " "))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line for " + first + " in:\n" + out));
  }

  @Test
  void aDamagedLedgerIsSaidInOneLineWithoutAJavaClassName() throws Exception {
    assertThat(legio(castra, "usage").code()).isZero();
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + dir.resolve("legion/castra/praetorium.db"));
        java.sql.Statement s = c.createStatement()) {
      s.execute("DROP TABLE usage_ledger");
    }

    CliResult r = legio(castra, "usage");

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip())
        .startsWith("legio: reading the usage ledger failed: ")
        .contains("no such table: usage_ledger")
        .endsWith("(details in the log file)")
        .doesNotContain("dev.legio")
        .doesNotContain("Exception");
  }

  @Test
  void usagePrintsEachAgentsTurnsAndTheTotal() {
    assertThat(legio(castra, "say", "-q", "@vorenus scout the north road").code()).isZero();
    clock.advance(Duration.ofMinutes(5));
    assertThat(legio(castra, "say", "-q", "@vorenus and the south road").code()).isZero();
    assertThat(legio(castra, "say", "-q", "@pullo hold the bridge").code()).isZero();

    CliResult r = legio(castra, "usage");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .startsWith("AGENT ")
        .contains("TURNS", "INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE", "COST (USD)")
        .contains("since 2026-11-13T10:05:00.000000+00:00");
    assertThat(line(r.out(), "vorenus"))
        .matches("vorenus\\s+2\\s+[\\d,]+\\s+[\\d,]+\\s+0\\s+0\\s+\\$0\\.0000");
    assertThat(line(r.out(), "pullo")).matches("pullo\\s+1\\s.*\\$0\\.0000");
    assertThat(line(r.out(), "TOTAL")).matches("TOTAL\\s+3\\s.*\\$0\\.0000");

    CliResult byModel = legio(castra, "usage", "--by", "model");
    assertThat(line(byModel.out(), "offline")).startsWith("offline default").contains(" 3 ");
    CliResult byDay = legio(castra, "usage", "--by=day");
    assertThat(byDay.out()).startsWith("DAY (UTC)");
    assertThat(line(byDay.out(), "2026-11-20")).contains(" 3 ");
    CliResult byKey = legio(castra, "usage", "--by", "key");
    assertThat(line(byKey.out(), "(none)")).contains(" 3 ");
  }

  @Test
  void failedTurnsGetAColumnOfTheirOwnWhenThereAreAny() {
    java.time.Instant since = java.time.Instant.parse("2026-11-20T00:00:00Z");
    dev.legio.usage.UsageReport failing =
        dev.legio.usage.UsageReport.of(
            since,
            dev.legio.usage.Grouping.AGENT,
            java.util.List.of(
                new dev.legio.usage.UsageTotal(
                    "pullo", 2, new dev.legio.pricing.Tokens(10, 5, 0, 0), null, 2, 0),
                new dev.legio.usage.UsageTotal(
                    "vorenus", 3, new dev.legio.pricing.Tokens(30, 7, 0, 0), null, 3, 2)));
    String out = UsageCommand.format(failing);
    assertThat(out.lines().findFirst().orElseThrow())
        .matches("AGENT\\s+TURNS\\s+FAILED\\s+INPUT.*");
    assertThat(line(out, "vorenus")).matches("vorenus\\s+3\\s+2\\s+30\\s+7\\s.*");
    assertThat(line(out, "pullo")).matches("pullo\\s+2\\s+0\\s+10\\s+5\\s.*");
    assertThat(line(out, "TOTAL")).matches("TOTAL\\s+5\\s+2\\s+40\\s+12\\s.*");

    dev.legio.usage.UsageReport fine =
        dev.legio.usage.UsageReport.of(
            since,
            dev.legio.usage.Grouping.AGENT,
            java.util.List.of(
                new dev.legio.usage.UsageTotal(
                    "pullo", 2, new dev.legio.pricing.Tokens(10, 5, 0, 0), null, 2)));
    assertThat(UsageCommand.format(fine)).doesNotContain("FAILED");
  }

  @Test
  void sinceLeavesOutOlderTurns() {
    assertThat(legio(castra, "say", "-q", "@vorenus scout").code()).isZero();
    clock.advance(Duration.ofDays(8));

    assertThat(legio(castra, "usage").out()).contains("no turns recorded");
    assertThat(line(legio(castra, "usage", "--since", "30d").out(), "TOTAL")).contains(" 1 ");
  }

  @Test
  void aGroupingOrAgeThatIsNotOneIsAClearError() {
    CliResult r = legio(castra, "usage", "--by", "colour");
    assertThat(r.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(r.err()).contains("'colour' is not a grouping: use agent, session, key, task-run");
    CliResult age = legio(castra, "usage", "--since", "soon");
    assertThat(age.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(age.err()).contains("'soon' is not an age");
  }

  @Test
  void anAgeBeyondTheRangeIsAClearErrorAndOneReachingPast1970CountsEverything() {
    assertThat(legio(castra, "say", "-q", "@vorenus scout").code()).isZero();
    clock.advance(Duration.ofDays(400));
    for (String age : new String[] {"P106751991167300D", "PT2562047788015215H"}) {
      CliResult r = legio(castra, "usage", "--since", age);
      assertThat(r.code()).as(r.err()).isEqualTo(LegioCommand.USAGE);
      assertThat(r.err()).contains("'" + age + "' is too long an age: at most 999999999 days");
    }
    for (String age : new String[] {"999999999d", "P999999999D"}) {
      CliResult r = legio(castra, "usage", "--since", age);
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(line(r.out(), "TOTAL")).contains(" 1 ");
      assertThat(r.out()).contains("since 1970-01-01T00:00");
    }
  }

  @Test
  void statusShowsEachSessionsCostSoFar() {
    assertThat(legio(castra, "say", "-q", "@vorenus scout").code()).isZero();

    CliResult status = legio(castra, "status");
    assertThat(status.out()).as(status.err()).startsWith("AGENT").contains("COST");
    assertThat(line(status.out(), "vorenus")).endsWith("offline  $0.0000");
    assertThat(line(status.out(), "pullo")).endsWith("-");
  }

  @Test
  void theDailyPruneKeepsTurnsForKeepDaysOrTheLongestTtl() {
    assertThat(legio(castra, "say", "-q", "@vorenus scout").code()).isZero();
    Workspace workspace = new Workspace(dir.resolve("legion"));

    clock.advance(Duration.ofDays(399));
    try (LegioApp app = LegioApp.open(workspace, env, clock)) {
      assertThat(app.usageRetention().keepFor()).isEqualTo(Duration.ofDays(400));
      assertThat(app.pruneUsage()).isZero();
    }
    clock.advance(Duration.ofDays(2));
    try (LegioApp app = LegioApp.open(workspace, env, clock);
        SessionMaintenance maintenance = app.maintenance(clock)) {
      maintenance.dailyCleanup(); // the 02:00 UTC run of legio serve
      assertThat(app.usage().report(Instant.EPOCH, Grouping.AGENT).rows()).isEmpty();
    }
  }
}
