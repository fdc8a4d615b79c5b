package dev.legio.task;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.ModelBackend;
import dev.legio.config.SessionSettings;
import dev.legio.pricing.PriceTable;
import dev.legio.store.LegioStore;
import dev.legio.usage.UsageRecorder;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * Task sessions on one store, as {@code LegioApp} wires them, for tests: one back-end, list prices.
 */
final class TestTaskSessions {
  private TestTaskSessions() {}

  static TaskSessions on(
      LegioStore store, Path castra, ModelBackend backend, SessionSettings settings, Clock clock) {
    return on(store, store.tasks(), castra, backend, settings, clock);
  }

  /**
   * As {@link #on(LegioStore, Path, ModelBackend, SessionSettings, Clock)}, keeping {@code tasks}.
   */
  static TaskSessions on(
      LegioStore store,
      TaskSessionStore tasks,
      Path castra,
      ModelBackend backend,
      SessionSettings settings,
      Clock clock) {
    return new TaskSessions(
        new AgentDirectory(castra),
        backend,
        null,
        tasks,
        store.sessions(),
        store.usage(),
        new UsageRecorder(store.usage(), PriceTable.withOverrides(Map.of())),
        settings,
        clock,
        store.conversations());
  }
}
