package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.agents.AgentDirectory;
import dev.legio.config.SessionSettings;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code [sessions] resume_after_idle}: an agent's session idle past {@code
 * session_idle_timeout_minutes} keeps its conversation (only its process is stopped) when true, and
 * is rebuilt when false (the default); past its back-end's TTL it is rebuilt either way.
 */
class ResumeAfterIdleTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  private final ScriptedBackend backend =
      ScriptedBackend.resuming(new ScriptedBackend.Conversations());
  private LegioStore store;
  private SessionEngine engine;

  @BeforeEach
  void start() {
    WorkspaceInitializer.initialise(new Workspace(dir.resolve("ws")));
    store =
        LegioStore.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                dir.resolve("praetorium.db"), 1 << 20, false, 2, clock));
  }

  @AfterEach
  void stop() {
    engine.close();
    store.close();
  }

  private SessionEngine engine(boolean resumeAfterIdle) {
    engine =
        SessionEngine.builder()
            .messageLog(store.messageLog())
            .store(store.sessions())
            .agents(new AgentDirectory(new Workspace(dir.resolve("ws")).castra()))
            .backend(backend)
            .settings(SessionSettings.defaults().withResumeAfterIdle(resumeAfterIdle))
            .clock(clock)
            .build();
    return engine;
  }

  private String lastResumeId() {
    return backend.opened.get(backend.opened.size() - 1).resumeId();
  }

  @Test
  void withResumeAfterIdleAnIdleAgentSessionIsResumedNotRebuilt() {
    SessionEngine e = engine(true);
    e.handle("@vorenus first", DispatchListener.NONE);
    SessionRecord before = store.sessions().find("vorenus").orElseThrow();

    clock.advance(SessionSettings.defaults().idleTimeout().plusDays(3));
    assertThat(e.reapIdle()).isEqualTo(1); // the process is stopped...
    assertThat(store.sessions().find("vorenus").orElseThrow().active()).isTrue(); // ...not the rest
    e.handle("@vorenus second", DispatchListener.NONE);

    SessionRecord after = store.sessions().find("vorenus").orElseThrow();
    assertThat(after.sessionId()).isEqualTo(before.sessionId());
    assertThat(lastResumeId()).isEqualTo(before.backendSessionId());
    assertThat(e.rebuildCounts().values()).containsOnly(0L);
  }

  @Test
  void withResumeAfterIdleASessionIdlePastItsTtlIsRebuilt() {
    SessionEngine e = engine(true);
    e.handle("@vorenus first", DispatchListener.NONE);
    SessionRecord before = store.sessions().find("vorenus").orElseThrow();

    clock.advance(SessionSettings.defaults().ttlFor(backend.kind()).plusMinutes(1));
    e.handle("@vorenus second", DispatchListener.NONE);

    assertThat(store.sessions().find("vorenus").orElseThrow().sessionId())
        .isNotEqualTo(before.sessionId());
    assertThat(e.rebuildCounts()).containsEntry(RebuildReason.IDLE, 1L);
  }

  @Test
  void byDefaultAnIdleAgentSessionIsClosedAndTheNextRequestStartsAnew() {
    SessionEngine e = engine(false);
    e.handle("@vorenus first", DispatchListener.NONE);
    SessionRecord before = store.sessions().find("vorenus").orElseThrow();

    clock.advance(SessionSettings.defaults().idleTimeout().plusMinutes(1));
    assertThat(e.reapIdle()).isEqualTo(1);
    assertThat(store.sessions().find("vorenus").orElseThrow().active()).isFalse();
    e.handle("@vorenus second", DispatchListener.NONE);

    assertThat(store.sessions().find("vorenus").orElseThrow().sessionId())
        .isNotEqualTo(before.sessionId());
    assertThat(lastResumeId()).isNull();
  }
}
