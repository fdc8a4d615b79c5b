package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.config.SessionSettings;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine tells its session event listener what every session does, whoever asked. */
class SessionEventListenerTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.at("2026-11-23T09:00:00Z");
  private LegioStore store;
  private SessionEngine engine;
  private final List<String> told = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    Workspace workspace = new Workspace(dir.resolve("ws"));
    WorkspaceInitializer.initialise(workspace);
    store =
        LegioStore.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                dir.resolve("praetorium.db"), 1 << 20, false, 2, clock));
    engine =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(workspace.castra()))
            .backend(new OfflineBackend())
            .settings(SessionSettings.defaults())
            .clock(clock)
            .build();
    engine.setSessionEventListener(
        new SessionEventListener() {
          @Override
          public void activityChanged(String owner, String activity) {
            told.add(owner + " " + activity);
          }

          @Override
          public void rebuilt(String owner, RebuildReason reason) {
            told.add(owner + " rebuilt " + reason);
          }

          @Override
          public void backendEvent(String owner, BackendEvent event) {
            if (event instanceof BackendEvent.Status s) {
              told.add(owner + " " + s.text());
            }
          }
        });
  }

  @AfterEach
  void stop() {
    engine.close();
    store.close();
  }

  @Test
  void activityStatusLinesAndRebuildsReachTheListener() {
    engine.handle("@pullo dig", DispatchListener.NONE);
    engine.reset("pullo");
    assertThat(told)
        .containsExactly(
            "pullo working", "pullo ⏳ Thinking...", "pullo idle", "pullo rebuilt RESET");
  }

  @Test
  void aListenerThatThrowsChangesNothingAboutTheTurn() {
    engine.setSessionEventListener(
        new SessionEventListener() {
          @Override
          public void activityChanged(String owner, String activity) {
            throw new IllegalStateException("boom");
          }
        });
    Outcome outcome = engine.handle("@pullo dig", DispatchListener.NONE);
    assertThat(outcome.ok()).isTrue();
    engine.setSessionEventListener(SessionEventListener.NONE);
    assertThat(engine.handle("@pullo again", DispatchListener.NONE).ok()).isTrue();
  }
}
