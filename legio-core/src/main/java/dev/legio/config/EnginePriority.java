package dev.legio.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How {@code legio serve} runs the engine's work next to the API's own threads ({@code [server]
 * engine_priority}), on Linux: the threads that carry turns, transcripts, event streams and MCP.
 */
public enum EnginePriority {
  /**
   * The engine's threads at nice 10, so that the API's threads, which only read and answer, get a
   * core first when turns keep every core busy. The default.
   */
  LOWERED("lowered"),
  /** No change: the engine's threads share the cores with the API's as equals. */
  EQUAL("equal");

  private final String label;

  EnginePriority(String label) {
    this.label = label;
  }

  /** The value in legio.toml. */
  public String label() {
    return label;
  }

  /** Every value legio.toml accepts. */
  public static List<String> labels() {
    return Arrays.stream(values()).map(EnginePriority::label).toList();
  }

  /** The level named {@code label} in legio.toml, if any. */
  public static Optional<EnginePriority> of(String label) {
    String wanted = label == null ? "" : label.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(p -> p.label.equals(wanted)).findFirst();
  }
}
