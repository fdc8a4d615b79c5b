package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.session.SessionRecord;
import dev.legio.testing.HandEdits;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio status} lists the open channels and counts the others; {@code --channels all} and
 * {@code --limit} list more. Through a real workspace on a clock the test moves.
 */
class StatusCommandTest {
  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private final MutableClock clock = MutableClock.at("2026-11-20T10:00:00Z");
  private String castra;

  private CliResult legio(String... args) {
    return CliResult.run(env, dir, clock, args);
  }

  @BeforeEach
  void init() throws Exception {
    assertThat(legio("init", "legion").code()).isZero();
    castra = "--castra=" + dir.resolve("legion");
    // Chats a gateway saw: one used a minute ago, one two hours ago, one closed as idle.
    try (LegioApp app = LegioApp.open(new Workspace(dir.resolve("legion")), env, clock)) {
      app.sessions().save(channel("telegram:1", Duration.ofMinutes(1), false));
      app.sessions().save(channel("telegram:2", Duration.ofHours(2), false));
      app.sessions().save(channel("telegram:3", Duration.ofHours(1), true));
    }
  }

  private SessionRecord channel(String owner, Duration ago, boolean closed) {
    Instant last = clock.instant().minus(ago);
    return new SessionRecord(
        owner,
        UUID.randomUUID(),
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
        last.plus(Duration.ofDays(30)),
        closed ? SessionRecord.State.CLOSED : SessionRecord.State.ACTIVE,
        closed ? "idle" : null,
        0,
        null);
  }

  private static List<String> owners(String out) {
    return Arrays.stream(out.split("\n"))
        .filter(l -> l.startsWith("telegram:"))
        .map(l -> l.split(" ")[0])
        .toList();
  }

  @Test
  void theOpenChannelsAreListedAndTheOthersCounted() {
    CliResult r = legio(castra, "status");

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(owners(r.out())).containsExactly("telegram:1");
    assertThat(r.out())
        .contains("vorenus ")
        .contains(
            "1 of 3 channels listed (1 open: a turn running, or used within [channels]"
                + " idle_timeout_minutes)")
        .contains("`legio status --channels all` lists the closed and idle ones too.");
  }

  @Test
  void allListsEveryChannelTheMostRecentlyUsedFirstUpToTheLimit() {
    CliResult all = legio(castra, "status", "--channels", "all");
    assertThat(all.code()).as(all.err()).isZero();
    assertThat(owners(all.out())).containsExactly("telegram:1", "telegram:3", "telegram:2");
    assertThat(all.out()).doesNotContain("channels listed");

    CliResult two = legio(castra, "status", "--channels", "all", "--limit", "2");
    assertThat(owners(two.out())).containsExactly("telegram:1", "telegram:3");
    assertThat(two.out())
        .contains("2 of 3 channels listed")
        .contains("`legio status --channels all --limit N` lists more.");
  }

  @Test
  void aDamagedChannelRowIsNamedBesideTheCountOfTheOthers() {
    HandEdits.sqlite(
        dir.resolve("legion/castra/praetorium.db"),
        "UPDATE sessions SET state = 'paused' WHERE owner = 'telegram:2'");

    CliResult r = legio(castra, "status");

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(owners(r.out())).containsExactly("telegram:1");
    assertThat(r.out())
        .containsPattern(
            "(?m)^damaged session: the session record of 'telegram:2' \\(session [0-9a-f-]+\\)"
                + " .*state 'paused' is neither 'active' nor 'closed'")
        .contains("1 of 2 channels listed (1 open:");
    CliResult all = legio(castra, "status", "--channels", "all");
    assertThat(owners(all.out())).containsExactly("telegram:1", "telegram:3");
    assertThat(all.out()).contains("damaged session: the session record of 'telegram:2'");
  }

  @Test
  void aWrongScopeOrLimitIsAUsageError() {
    CliResult closed = legio(castra, "status", "--channels", "closed");
    assertThat(closed.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(closed.err()).contains("'open'").contains("'all'").contains("'closed'");
    CliResult zero = legio(castra, "status", "--limit", "0");
    assertThat(zero.code()).isEqualTo(LegioCommand.USAGE);
    assertThat(zero.err()).contains("from 1 to 10000");
  }
}
