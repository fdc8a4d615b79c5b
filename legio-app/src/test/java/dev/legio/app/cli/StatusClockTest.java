package dev.legio.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.PostgresTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code legio status} says how far this machine's clock is from the database's (PostgreSQL). */
class StatusClockTest {
  @TempDir Path dir;

  private final Map<String, String> env = new HashMap<>();

  private String legio(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, env, dir, new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(code).as(err.toString()).isZero();
    return out.toString();
  }

  @Test
  void onPostgresStatusShowsTheClocksOffsetFromTheDatabases() {
    legio("init", "legion");
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      env.put("LEGIO_DB_URL", database.url());

      assertThat(legio("--castra=" + dir.resolve("legion"), "status"))
          .containsPattern(
              "Clock: this machine's clock is \\d+\\.\\d{3} s (ahead of|behind) the database's"
                  + " \\(measured with a round trip of \\d+ ms\\); leases are compared on the"
                  + " database's time\\.");
    }
  }

  @Test
  void onSqliteStatusSaysNothingOfClocks() {
    legio("init", "legion");

    assertThat(legio("--castra=" + dir.resolve("legion"), "status")).doesNotContain("Clock:");
  }
}
