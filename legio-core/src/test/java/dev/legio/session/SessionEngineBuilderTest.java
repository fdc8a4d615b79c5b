package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.agents.AgentDirectory;
import dev.legio.config.SessionSettings;
import dev.legio.testing.InMemoryMessageLog;
import dev.legio.testing.InMemorySessionStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.ScriptedBackend;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link SessionEngineBuilder}: what is required, and the parts it wires in. */
class SessionEngineBuilderTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");

  private SessionEngineBuilder complete() throws Exception {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    return SessionEngine.builder()
        .messageLog(new InMemoryMessageLog(clock))
        .store(new InMemorySessionStore())
        .agents(new AgentDirectory(workspace.castra()))
        .backend(ScriptedBackend.forgetful())
        .clock(clock);
  }

  @ParameterizedTest(name = "without {0}")
  @CsvSource({"messageLog", "store", "agents", "backend"})
  void buildingWithoutARequiredPartNamesIt(String part) throws Exception {
    SessionEngineBuilder builder = complete();
    switch (part) {
      case "messageLog" -> builder.messageLog(null);
      case "store" -> builder.store(null);
      case "agents" -> builder.agents(null);
      default -> builder.backend(null);
    }
    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "SessionEngine.builder(): " + part + "(...) is required; call it before build()");
  }

  @Test
  void theLeaseWaitIsMeasuredAndSleptAsTheBuilderSays() throws Exception {
    InMemorySessionStore store = new InMemorySessionStore();
    store.tryLease("telegram:9", "another-process", clock.instant(), Duration.ofMinutes(15));
    Instant start = clock.instant();
    try (SessionEngine engine =
        complete()
            .store(store)
            .settings(SessionSettings.defaults().withLockWait(Duration.ofSeconds(2)))
            .leaseWaiting(clock, clock::advance)
            .build()) {

      Outcome outcome = engine.handleChannel("telegram:9", "are you there?", DispatchListener.NONE);

      assertThat(outcome.replies().get(0).text()).contains("another Legio process");
      assertThat(Duration.between(start, clock.instant())).isEqualTo(Duration.ofSeconds(2));
      // The other process's lease, the try that came with the request, then the turn's tries at
      // 0, 50, ..., 2000 ms of the fake clock.
      assertThat(store.leaseAttempts).hasSize(1 + 1 + 41);
    }
  }
}
