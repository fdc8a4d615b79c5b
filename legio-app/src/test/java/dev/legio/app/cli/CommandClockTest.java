package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On PostgreSQL the commands that compare an age with what the database holds ({@code log prune
 * --older-than}, {@code usage --since}) count it on the database's time, the clock the rows were
 * stamped on, not on the machine's that runs them.
 */
class CommandClockTest {
  @TempDir Path dir;

  private final Map<String, String> env = new HashMap<>();

  /** A machine whose clock is two days ahead of the database's. */
  private final Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofDays(2));

  @Test
  void anAgeIsCountedOnTheDatabasesTimeWhateverThisMachinesClockSays() {
    assertThat(CliResult.run(env, dir, Clock.systemUTC(), "init", "legion").code()).isZero();
    String castra = "--castra=" + dir.resolve("legion");
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      env.put("LEGIO_DB_URL", database.url());
      CliResult said =
          CliResult.run(env, dir, Clock.systemUTC(), castra, "say", "-q", "@vorenus scout");
      assertThat(said.code()).as(said.err()).isZero();

      CliResult usage = CliResult.run(env, dir, ahead, castra, "usage", "--since", "1d");
      assertThat(usage.code()).as(usage.err()).isZero();
      assertThat(usage.out())
          .as("the turn of a minute ago is within a day")
          .doesNotContain("no turns recorded")
          .containsPattern("(?m)^TOTAL +1 ");

      CliResult prune =
          CliResult.run(env, dir, ahead, castra, "log", "prune", "--older-than", "1d");
      assertThat(prune.code()).as(prune.err()).isZero();
      assertThat(prune.out()).as("nothing is a day old yet").startsWith("removed 0 messages");
    }
  }
}
