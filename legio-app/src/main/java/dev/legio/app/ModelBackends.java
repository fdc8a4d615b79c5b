package dev.legio.app;

import dev.legio.backend.BackendDetector;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.anthropic.AnthropicBackend;
import dev.legio.config.LegioConfig;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The model back-ends of one Legio.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The main back-end is the one {@code [backend] kind} names; for {@code auto}, the one {@link
 *       BackendDetector} picks from the environment, and {@link #choice()} says which and why.
 *   <li>An agent that names another kind in its front matter ({@code backend: ollama}) gets a
 *       back-end of that kind built on first use with that kind's defaults (its URL, its usual API
 *       key variable); an agent naming the main one's kind shares the main one.
 *   <li>All are closed with the app, after the engine and the memory extractor.
 * </ul>
 *
 * <p>It takes no lock of its own: {@link LegioApp} calls {@link #main()} under the app's lock, as
 * building a back-end takes that lock too (the store); {@link #started} takes none, since the app's
 * close holds the app's lock while the extractor finishes.
 */
final class ModelBackends implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ModelBackends.class);

  /** Builds a back-end of a kind from its {@code [backend]} section. */
  interface Builder {
    ModelBackend build(String kind, LegioConfig.Backend settings);
  }

  private final LegioConfig.Backend settings;
  private final Map<String, String> env;
  private final Builder builder;
  private volatile ModelBackend main;
  private volatile String choice;
  private final Map<String, ModelBackend> byKind = new ConcurrentHashMap<>();

  ModelBackends(LegioConfig.Backend settings, Map<String, String> env, Builder builder) {
    this.settings = settings;
    this.env = env;
    this.builder = builder;
  }

  /** The main back-end, chosen and built on first use. Called under the app's lock. */
  ModelBackend main() {
    if (main == null) {
      String kind = settings.kind();
      if (kind.equals(LegioConfig.Backend.AUTO)) {
        BackendDetector.Choice detected =
            BackendDetector.forEnvironment(env)
                .detect(
                    LegioConfig.Backend.apiKeyVariable(settings.apiKeyEnv(), AnthropicBackend.KIND),
                    settings.baseUrl());
        kind = detected.kind();
        choice = detected.reason();
        log.info(choice);
      } else {
        choice = "back-end: " + kind + " ([backend] kind in legio.toml)";
      }
      main = builder.build(kind, settings);
    }
    return main;
  }

  /** Which back-end {@link #main()} chose and why, once it has; null before. */
  String choice() {
    return choice;
  }

  /** The back-end of {@code kind}: {@code main} when it is of that kind, else one built once. */
  ModelBackend ofKind(String kind, ModelBackend main) {
    if (main.kind().equals(kind)) {
      return main;
    }
    return byKind.computeIfAbsent(
        kind,
        k -> {
          String variable = LegioConfig.Backend.apiKeyVariable("", k);
          String key = variable == null ? null : env.get(variable);
          log.info("back-end {} started for the agents that name it in their prompt.md", k);
          return builder.build(
              k, LegioConfig.Backend.of(k).withApiKey(key == null || key.isBlank() ? null : key));
        });
  }

  /** The back-end of {@code kind} if it was started (a turn ran on it), else null. No lock. */
  ModelBackend started(String kind) {
    ModelBackend current = main;
    if (current != null && current.kind().equals(kind)) {
      return current;
    }
    return byKind.get(kind);
  }

  @Override
  public void close() {
    ModelBackend current = main;
    main = null;
    if (current != null) {
      current.close();
    }
    byKind.values().forEach(ModelBackend::close);
    byKind.clear();
  }
}
