package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.session.SessionMaintenance;
import dev.legio.task.TaskResult;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio serve}'s maintenance keeps task sessions: their idle processes are closed with the
 * idle reaper's interval, and the daily cleanup deletes them once their TTL has run out.
 */
class TaskSessionCleanupTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.at("2026-01-01T10:00:00Z");

  @Test
  void anEmbeddingPlatformDeletesExpiredTaskSessionsThroughTheJavaApi() throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path toml = workspace.configFile();
    Files.writeString(
        toml,
        Files.readString(toml)
            .replace("kind = \"auto\"", "kind = \"offline\"")
            .replace("default = 30\n", "default = 10\n"));
    try (Legio legio = Legio.open(dir, Map.of(), clock)) {
      legio.tasks().run("campaign:1", "vorenus", "scout", "run-1");
      legio.tasks().run("campaign:2", "vorenus", "scout", "run-2");
      assertThat(legio.tasks().closeIdle()).isZero(); // just used
      clock.advance(Duration.ofDays(1));
      assertThat(legio.tasks().closeIdle()).isEqualTo(2);
      assertThat(legio.tasks().deleteExpired()).isZero();
      // A new turn keeps campaign:2 alive (the offline model cannot resume, so a new session).
      legio.tasks().run("campaign:2", "vorenus", "again", "run-3");
      clock.advance(Duration.ofDays(9).plusMinutes(1));
      assertThat(legio.tasks().deleteExpired()).isEqualTo(1);
      assertThat(legio.tasks().sessions("campaign:1"))
          .singleElement()
          .satisfies(s -> assertThat(s.resumable()).isFalse());
      assertThat(legio.tasks().sessions("campaign:2"))
          .anySatisfy(s -> assertThat(s.resumable()).isTrue());
    }
  }

  @Test
  void theDailyCleanupDeletesTaskSessionsPastTheirTtlOnly() throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    Path toml = workspace.configFile();
    Files.writeString(
        toml,
        Files.readString(toml)
            .replace("kind = \"auto\"", "kind = \"offline\"")
            .replace("default = 30\n", "default = 10\n"));

    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      SessionMaintenance maintenance = app.maintenance(clock);
      assertThat(maintenance.periodic())
          .extracting(SessionMaintenance.Periodic::name)
          .contains("idle task processes");
      assertThat(maintenance.daily().tasks())
          .extracting(dev.legio.session.DailyCleanup.Task::deletes)
          .contains("expired task sessions");
      TaskResult first = app.tasks().run("campaign:1", "vorenus", "scout", "run-1");

      clock.advance(Duration.ofDays(10).minusMinutes(1));
      maintenance.dailyCleanup();
      assertThat(app.store().tasks().find("campaign:1", "vorenus")).isPresent();

      clock.advance(Duration.ofMinutes(2));
      maintenance.dailyCleanup();
      assertThat(app.store().tasks().find("campaign:1", "vorenus")).isEmpty();
      TaskResult again = app.tasks().run("campaign:1", "vorenus", "scout", "run-2");
      assertThat(again.resumed()).isFalse();
      assertThat(again.sessionId()).isNotEqualTo(first.sessionId());
      // The ledger keeps both sessions' turns under the key.
      assertThat(app.tasks().sessionsOf("campaign:1")).hasSize(2);
    }
  }
}
