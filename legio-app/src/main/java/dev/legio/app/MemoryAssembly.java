package dev.legio.app;

import dev.legio.agents.AgentProfile;
import dev.legio.backend.ModelBackend;
import dev.legio.log.Names;
import dev.legio.longterm.ConsolidationRunner;
import dev.legio.longterm.MemoryExtractor;
import dev.legio.memoria.FileMemoryStore;
import dev.legio.memoria.MemoryStore;
import java.util.function.Function;

/**
 * Builds the agents' memory from legio.toml: memoria's store ({@code [memoria]}) and long-term
 * memory's extraction and consolidation ({@code [memory]}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Memoria is kept where {@code [memoria] store} says: XML files under the castra, or the
 *       database of {@link LegioApp#store()} (opened then), which every node sharing it sees.
 *   <li>Extraction reads the app's own transcripts and asks only a back-end that was started (a
 *       turn ran on it), never starting one.
 *   <li>Consolidation reads the app's own transcripts, each agent asking its own back-end and
 *       model: its {@code prompt.md}'s {@code backend} (the back-end of that kind, by {@link
 *       ModelBackends}' rules) and {@code model}; an agent naming no back-end asks the main one,
 *       with its own model if it names one; an unknown agent, the main one with the default model.
 * </ul>
 */
final class MemoryAssembly {
  private MemoryAssembly() {}

  /** Memoria's store, as {@code [memoria] store} says. */
  static MemoryStore memoriaStore(LegioApp app) {
    return switch (app.config().memoria().store()) {
      case FILES -> new FileMemoryStore(app.workspace().castra());
      case DATABASE -> app.store().memoria();
    };
  }

  /**
   * The extractor of durable facts into the agents' {@code MEMORY.md}, asking {@code started} for
   * the back-end of a kind (null: not started).
   */
  static MemoryExtractor extractor(LegioApp app, Function<String, ModelBackend> started) {
    return new MemoryExtractor(
        MemoryExtractor.Settings.of(app.config().memory()),
        app.transcripts(),
        started,
        app.clock());
  }

  /** Consolidation ("dream") of the agents' long-term memory. */
  static ConsolidationRunner consolidation(LegioApp app) {
    return new ConsolidationRunner(
        app.config().memory(), app.transcripts(), agent -> model(app, agent), app.clock());
  }

  private static ConsolidationRunner.Model model(LegioApp app, String agent) {
    AgentProfile profile =
        Names.LEGATUS.equals(agent)
            ? app.agents().legatus()
            : app.agents().centurio(agent).orElse(null);
    if (profile == null || profile.backend() == null) {
      return new ConsolidationRunner.Model(app.backend(), profile == null ? null : profile.model());
    }
    return new ConsolidationRunner.Model(app.backendOfKind(profile.backend()), profile.model());
  }
}
