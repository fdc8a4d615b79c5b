package dev.legio.backend;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How many tokens each model can read at once, by model name. A name matches the longest known
 * prefix ({@code claude-sonnet-4-5-20250929} matches {@code claude}); overrides from {@code
 * [backend.context_windows]} in {@code legio.toml} come first, by exact name or prefix, the same
 * way.
 *
 * <p>Built-in windows: Claude 200K; GPT-4o, GPT-4 Turbo, o1, o3, o4 128K–200K; GPT-4.1 1M; Gemini
 * 1M; models served by Ollama 8192 (Ollama is told this window in {@code num_ctx}, since its own
 * default is smaller and it silently cuts what does not fit); anything else 200K.
 */
public final class ContextWindows {
  /** The window of a model nobody knows, as in the seed's table. */
  public static final int DEFAULT = 200_000;

  /** The window Legio gives models served by Ollama when the configuration names none. */
  public static final int OLLAMA_DEFAULT = 8_192;

  private static final Map<String, Integer> KNOWN = known();

  private final Map<String, Integer> overrides;
  private final int fallback;

  private ContextWindows(Map<String, Integer> overrides, int fallback) {
    this.overrides = Map.copyOf(overrides);
    this.fallback = fallback;
  }

  /**
   * The windows of models of a hosted API (Anthropic, OpenAI-compatible), with {@code overrides}
   * (model name or prefix → tokens).
   */
  public static ContextWindows hosted(Map<String, Integer> overrides) {
    return new ContextWindows(lowercase(overrides), -1);
  }

  /** The windows of models served by Ollama: {@link #OLLAMA_DEFAULT} unless overridden. */
  public static ContextWindows ollama(Map<String, Integer> overrides) {
    return new ContextWindows(lowercase(overrides), OLLAMA_DEFAULT);
  }

  /** The context window of {@code model}, in tokens. */
  public int of(String model) {
    String name = model.toLowerCase(Locale.ROOT);
    Integer override = longestPrefix(overrides, name);
    if (override != null) {
      return override;
    }
    if (fallback > 0) {
      return fallback;
    }
    Integer known = longestPrefix(KNOWN, name);
    return known != null ? known : DEFAULT;
  }

  private static Integer longestPrefix(Map<String, Integer> table, String name) {
    String best = null;
    for (String prefix : table.keySet()) {
      if (name.startsWith(prefix) && (best == null || prefix.length() > best.length())) {
        best = prefix;
      }
    }
    return best == null ? null : table.get(best);
  }

  private static Map<String, Integer> lowercase(Map<String, Integer> overrides) {
    Map<String, Integer> lower = new LinkedHashMap<>();
    Objects.requireNonNull(overrides, "overrides")
        .forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    return lower;
  }

  private static Map<String, Integer> known() {
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("claude", 200_000);
    m.put("gpt-4o", 128_000);
    m.put("gpt-4-turbo", 128_000);
    m.put("gpt-4.1", 1_047_576);
    m.put("gpt-4", 8_192);
    m.put("gpt-3.5-turbo", 16_385);
    m.put("gpt-5", 400_000);
    m.put("o1", 200_000);
    m.put("o3", 200_000);
    m.put("o4", 200_000);
    m.put("gemini", 1_000_000);
    return Map.copyOf(m);
  }
}
