package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.testing.PostgresTestDatabase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process appending in a loop is killed with SIGKILL; every append it reported as committed must
 * be there afterwards, and the database must be intact.
 */
class CrashSafetyTest {
  @TempDir Path dir;

  /** Runs the appender until it has reported {@code atLeast} commits, kills it, returns the ids. */
  private static List<UUID> appendThenKill(String store, String where, int atLeast)
      throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process child =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                CrashingAppender.class.getName(),
                store,
                where)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    List<UUID> reported = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (reported.size() < atLeast && (line = out.readLine()) != null) {
        reported.add(UUID.fromString(line));
      }
      // SIGKILL (through the handle: Process.destroyForcibly would also close our pipe).
      child.toHandle().destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      // Lines already written before the kill were reported too.
      while ((line = out.readLine()) != null) {
        if (line.length() == 36) {
          reported.add(UUID.fromString(line));
        }
      }
    }
    assertThat(child.exitValue()).isEqualTo(137); // 128 + SIGKILL
    assertThat(reported).hasSizeGreaterThanOrEqualTo(atLeast);
    return reported;
  }

  private static void assertAllPresent(MessageLog log, List<UUID> reported) {
    Set<UUID> stored = log.history(100_000).stream().map(Message::id).collect(Collectors.toSet());
    assertThat(stored).containsAll(reported);
  }

  @Test
  void sqliteKeepsEveryReportedAppendAcrossSigkill() throws Exception {
    Path file = dir.resolve("praetorium.db");
    List<UUID> reported = appendThenKill("sqlite", file.toString(), 3000);

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("PRAGMA integrity_check")) {
      r.next();
      assertThat(r.getString(1)).isEqualTo("ok");
    }
    try (MessageLog log =
        JdbcMessageLogs.openSqlite(
            new JdbcMessageLogs.SqliteOptions(file, 1 << 20, false, 2, Clock.systemUTC()))) {
      assertAllPresent(log, reported);
    }
  }

  @Test
  void postgresKeepsEveryReportedAppendAcrossSigkill() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      List<UUID> reported = appendThenKill("postgres", database.url(), 3000);
      try (MessageLog log =
          JdbcMessageLogs.openPostgres(
              new JdbcMessageLogs.PostgresOptions(
                  database.url(), null, null, 1 << 20, 2, Clock.systemUTC()))) {
        assertAllPresent(log, reported);
        assertThat(log.history(100_000))
            .extracting(Message::sequence)
            .isSorted()
            .doesNotHaveDuplicates();
      }
    }
  }
}
