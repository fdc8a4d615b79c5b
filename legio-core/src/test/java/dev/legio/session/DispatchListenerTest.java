package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.config.SessionSettings;
import dev.legio.log.Message;
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

/** What a request's caller hears: that it is logged, before anything its agents report. */
class DispatchListenerTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.at("2026-11-23T09:00:00Z");
  private LegioStore store;
  private SessionEngine engine;

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
  }

  @AfterEach
  void stop() {
    engine.close();
    store.close();
  }

  /** Records what it hears, the request as it is in the log when told. */
  private final class Recording implements DispatchListener {
    final List<String> heard = new CopyOnWriteArrayList<>();

    @Override
    public void onEvent(String agent, BackendEvent event) {
      heard.add(agent + " event");
    }

    @Override
    public void requestLogged(Message request) {
      boolean inTheLog = store.messageLog().find(request.id()).isPresent();
      heard.add("logged " + request.id() + (inTheLog ? " (in the log)" : " (NOT in the log)"));
    }
  }

  @Test
  void theRequestIsToldLoggedOnceBeforeItsAgentsReport() {
    Recording one = new Recording();
    Outcome outcome = engine.handle("@pullo dig", one);
    assertThat(one.heard).first().isEqualTo("logged " + outcome.request().id() + " (in the log)");
    assertThat(one.heard)
        .contains("pullo event")
        .filteredOn(h -> h.startsWith("logged"))
        .hasSize(1);

    Recording two = new Recording();
    Outcome both = engine.handle("@pullo @vorenus dig", two);
    assertThat(two.heard).first().isEqualTo("logged " + both.request().id() + " (in the log)");
    assertThat(two.heard)
        .contains("pullo event", "vorenus event")
        .filteredOn(h -> h.startsWith("logged"))
        .hasSize(1);

    Recording refused = new Recording();
    engine.handle("@brutus dig", refused);
    assertThat(refused.heard).isEmpty();
  }

  @Test
  void aListenerThatThrowsWhenToldLeavesTheTurnsToRun() {
    DispatchListener throwing =
        new DispatchListener() {
          @Override
          public void onEvent(String agent, BackendEvent event) {}

          @Override
          public void requestLogged(Message request) {
            throw new IllegalStateException("boom");
          }
        };
    assertThat(engine.handle("@pullo dig", throwing).ok()).isTrue();
    // The agent's queue went on: the next request is answered too.
    assertThat(engine.handle("@pullo dig again", DispatchListener.NONE).ok()).isTrue();
  }
}
