package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.log.Audience;
import dev.legio.log.NewMessage;
import dev.legio.session.SessionRecord;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LegioAppTest {
  @TempDir Path dir;

  @Test
  void theMessageLogAndTheSessionsShareOneStoreThatOutlivesTheApp() {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    MutableClock clock = MutableClock.at("2026-02-15T12:00:00Z");
    SessionRecord session =
        new SessionRecord(
            "vorenus",
            UUID.randomUUID(),
            "offline",
            null,
            "0".repeat(64),
            null,
            0,
            0,
            0,
            0,
            clock.instant(),
            clock.instant(),
            clock.instant().plusSeconds(3600),
            SessionRecord.State.ACTIVE,
            null,
            0);

    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      assertThat(app.store()).isSameAs(app.store());
      assertThat(app.messageLog()).isSameAs(app.store().messageLog());
      assertThat(app.sessions()).isSameAs(app.store().sessions());
      app.messageLog().append(NewMessage.of("caesar", Audience.of("vorenus"), "Salve"));
      app.sessions().save(session);
      assertThat(
              app.sessions()
                  .tryLease("vorenus", "this-node", clock.instant(), Duration.ofMinutes(1)))
          .isTrue();
    }

    try (LegioApp app = LegioApp.open(workspace, Map.of(), clock)) {
      assertThat(app.messageLog().size()).isEqualTo(1);
      assertThat(app.sessions().find("vorenus")).contains(session);
      assertThat(
              app.sessions()
                  .tryLease("vorenus", "other-node", clock.instant(), Duration.ofMinutes(1)))
          .isFalse();
    }
  }
}
