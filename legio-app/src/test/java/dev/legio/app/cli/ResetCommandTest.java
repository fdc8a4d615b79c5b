package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.HandEdits;
import dev.legio.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio reset NAME} for an agent removed from the castra (its folder deleted) whose session
 * row was left behind: the row is cleared, as the damaged-row notice tells the operator to do; a
 * name with no row stays an error naming the known agents, and a channel with no session is an
 * error saying so, as {@code DELETE /api/v1/sessions/{owner}} is 404; {@code reset all} clears such
 * rows too, and frees the leases a killed process left on the sessions it clears, not on a
 * channel's. Through a real workspace on SQLite.
 */
class ResetCommandTest {
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

  private void removeAgent(String name) throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("legion/castra/centuriones/" + name))) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Test
  void theActiveSessionOfARemovedAgentIsResetAndSaidToBeNoLongerConfigured() throws Exception {
    assertThat(legio(castra, "say", "-q", "@pullo dig in").code()).isZero();
    removeAgent("pullo");

    CliResult reset = legio(castra, "reset", "pullo");

    assertThat(reset.code()).as(reset.err()).isZero();
    assertThat(reset.out())
        .isEqualTo(
            "Reset pullo, an agent no longer configured in this castra: its session record is"
                + " closed.\n");
    CliResult again = legio(castra, "reset", "pullo");
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.out())
        .isEqualTo(
            "pullo, an agent no longer configured in this castra, has no active session; nothing"
                + " to reset.\n");
  }

  @Test
  void aChannelWithNoSessionIsAnErrorAsOverTheApi() {
    CliResult reset = legio(castra, "reset", "telegram:999");

    assertThat(reset.code()).isEqualTo(2);
    assertThat(reset.out()).isEmpty();
    assertThat(reset.err())
        .startsWith("legio: no session for channel telegram:999: it never wrote, or its session")
        .contains("`legio status --channels all`");
  }

  @Test
  void theDamagedRowOfARemovedAgentIsClearedAsTheStatusSays() throws Exception {
    assertThat(legio(castra, "say", "-q", "@pullo dig in").code()).isZero();
    HandEdits.sqlite(
        dir.resolve("legion/castra/praetorium.db"),
        "UPDATE sessions SET state = 'paused' WHERE owner = 'pullo'");
    removeAgent("pullo");
    assertThat(legio(castra, "status").out()).contains("`legio reset pullo` clears the row now");

    CliResult reset = legio(castra, "reset", "pullo");

    assertThat(reset.code()).as(reset.err()).isZero();
    assertThat(reset.out()).contains("Reset pullo, an agent no longer configured in this castra");
    assertThat(legio(castra, "status").out()).doesNotContain("damaged");
  }

  @Test
  void resetAllAlsoClearsTheRowsOfRemovedAgents() throws Exception {
    assertThat(legio(castra, "say", "-q", "@pullo dig in").code()).isZero();
    assertThat(legio(castra, "say", "-q", "@vorenus hold the line").code()).isZero();
    removeAgent("pullo");

    CliResult reset = legio(castra, "reset", "all");

    assertThat(reset.code()).as(reset.err()).isZero();
    assertThat(reset.out()).isEqualTo("Reset: vorenus, pullo.\n");
    CliResult again = legio(castra, "reset", "pullo");
    assertThat(again.out()).contains("pullo, an agent no longer configured in this castra, has no");
  }

  @Test
  void resetAllWaitsForTheTurnOfARemovedAgentAndSaysSo() throws Exception {
    // On the real clock: the reset waits for the turn in real time.
    java.time.Clock clock = java.time.Clock.systemUTC();
    assertThat(CliResult.run(env, dir, clock, castra, "say", "-q", "@pullo dig in").code())
        .isZero();
    assertThat(CliResult.run(env, dir, clock, castra, "say", "-q", "@vorenus hold").code())
        .isZero();
    removeAgent("pullo");
    dev.legio.app.process.Workspaces.edit(
        dir.resolve("legion"), "lock_wait_seconds = 30", "lock_wait_seconds = 2");

    // Another process (alive: this one) runs a turn of pullo, and runs it past the reset's wait.
    try (dev.legio.app.LegioApp other =
        dev.legio.app.LegioApp.open(
            new dev.legio.workspace.Workspace(dir.resolve("legion")), env, clock)) {
      assertThat(
              other
                  .sessions()
                  .tryLease(
                      "pullo",
                      "another-process",
                      java.time.Instant.now(),
                      java.time.Duration.ofMinutes(5)))
          .isTrue();

      CliResult reset = CliResult.run(env, dir, clock, castra, "reset", "all");

      assertThat(reset.code()).as(reset.err()).isZero();
      assertThat(reset.err())
          .isEqualTo(
              "legio: waiting for a turn of pullo to end (up to 2 s, [sessions]"
                  + " lock_wait_seconds)...\n");
      assertThat(reset.out())
          .isEqualTo(
              "Reset: vorenus. Busy with a turn, so not reset: pullo; reset them again once they"
                  + " have answered.\n");
    }
  }

  @Test
  void resetAllFreesTheLeasesOfTheSessionsItClearsAndLeavesAChannelsLeaseAlone() throws Exception {
    assertThat(legio(castra, "say", "-q", "@pullo dig in").code()).isZero();
    assertThat(legio(castra, "say", "-q", "@vorenus hold the line").code()).isZero();
    removeAgent("pullo");
    // A chat a gateway saw: reset all leaves channels' sessions alone.
    try (dev.legio.app.LegioApp app =
        dev.legio.app.LegioApp.open(
            new dev.legio.workspace.Workspace(dir.resolve("legion")), env, clock)) {
      java.time.Instant last = clock.instant().minusSeconds(60);
      app.sessions()
          .save(
              new dev.legio.session.SessionRecord(
                  "telegram:1",
                  java.util.UUID.randomUUID(),
                  "offline",
                  null,
                  "hash",
                  null,
                  10,
                  5,
                  1,
                  0,
                  last.minusSeconds(60),
                  last,
                  last.plus(java.time.Duration.ofDays(30)),
                  dev.legio.session.SessionRecord.State.ACTIVE,
                  null,
                  0,
                  null));
    }
    // Leases left by a process of this host that has ended (killed mid-turn): an agent's, a
    // removed agent's and that channel's.
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    String host = dev.legio.session.LeaseHolder.thisProcess().host();
    Path db = dir.resolve("legion/castra/praetorium.db");
    for (String owner : new String[] {"vorenus", "pullo", "telegram:1"}) {
      HandEdits.sqlite(
          db,
          "INSERT INTO session_leases (owner, holder, lease_until, holder_host, holder_pid)"
              + " VALUES ('"
              + owner
              + "', 'killed-mid-turn', '2099-01-01T00:00:00Z', '"
              + host
              + "', "
              + ended.pid()
              + ")");
    }

    CliResult reset = legio(castra, "reset", "all");

    assertThat(reset.code()).as(reset.err()).isZero();
    assertThat(reset.out())
        .isEqualTo(
            "Freed the lease on pullo's session: its holder (pid "
                + ended.pid()
                + " on "
                + host
                + ") is no longer running.\n"
                + "Freed the lease on vorenus's session: its holder (pid "
                + ended.pid()
                + " on "
                + host
                + ") is no longer running.\n"
                + "Reset: vorenus, pullo.\n");
    assertThat(leaseOwners(db))
        .as("the channel's lease is not reset all's")
        .containsExactly("telegram:1");
  }

  private static java.util.List<String> leaseOwners(Path db) throws java.sql.SQLException {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
        java.sql.ResultSet r =
            c.createStatement().executeQuery("SELECT owner FROM session_leases ORDER BY owner")) {
      java.util.List<String> owners = new java.util.ArrayList<>();
      while (r.next()) {
        owners.add(r.getString(1));
      }
      return owners;
    }
  }

  @Test
  void aNameWithNeitherAgentNorRowIsStillRefusedNamingTheKnownAgents() throws Exception {
    removeAgent("pullo"); // no row of pullo: nothing to clean up

    CliResult unknown = legio(castra, "reset", "pullo");

    assertThat(unknown.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(unknown.err())
        .isEqualTo("legio: no agent named 'pullo'. Known agents: legatus, vorenus.\n");
  }
}
