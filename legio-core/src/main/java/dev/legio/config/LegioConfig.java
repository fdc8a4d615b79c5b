package dev.legio.config;

import dev.legio.session.SessionSettings;
import java.nio.file.Path;

/**
 * Legio's configuration, read from {@code legio.toml} (see the template written by {@code legio
 * init} for every key with its documentation and default). Paths are absolute, resolved against the
 * folder of the file.
 */
public record LegioConfig(
    int historyWindow,
    Praetorium praetorium,
    Logging logging,
    SessionSettings sessions,
    Backend backend) {

  /**
   * The {@code [backend]} section: which model back-end agents talk to.
   *
   * @param kind {@code offline} (the built-in model) or {@code claude-cli}
   * @param claudeCli the {@code [backend.claude_cli]} sub-table (used when kind is {@code
   *     claude-cli})
   */
  public record Backend(String kind, ClaudeCli claudeCli) {}

  /**
   * The {@code [backend.claude_cli]} sub-table: how the Claude Code CLI is run.
   *
   * @param binary the {@code claude} executable: a path, or a name looked up on the PATH ({@code
   *     "claude"} also falls back to Legio's npm cache folder)
   * @param perTurn true for one process per turn ({@code mode = "per_turn"}), false for one
   *     long-lived process per session ({@code mode = "persistent"})
   * @param permissionMode the CLI's {@code --permission-mode}; empty: the CLI's default
   * @param allowedTools the CLI's {@code --allowedTools}
   * @param turnTimeout the longest one turn may take before the process is stopped
   * @param mcpConfig an MCP configuration file passed with {@code --mcp-config}, or null
   */
  public record ClaudeCli(
      String binary,
      boolean perTurn,
      String permissionMode,
      java.util.List<String> allowedTools,
      java.time.Duration turnTimeout,
      Path mcpConfig) {}

  /** Where the message log is stored. */
  public enum Store {
    SQLITE,
    POSTGRES
  }

  /**
   * The {@code [praetorium]} section.
   *
   * @param postgresPassword the password read from the environment variable named by {@code
   *     postgres_password_env}; null when unset. Never logged or shown.
   */
  public record Praetorium(
      Store store,
      Path sqlitePath,
      boolean sqliteFullSync,
      String postgresUrl,
      String postgresUser,
      String postgresPassword,
      int poolSize,
      long maxMessageBytes) {

    @Override
    public String toString() {
      return "Praetorium[store=%s, sqlitePath=%s, sqliteFullSync=%s, postgresUrl=%s, postgresUser=%s, poolSize=%d, maxMessageBytes=%d]"
          .formatted(
              store,
              sqlitePath,
              sqliteFullSync,
              postgresUrl,
              postgresUser,
              poolSize,
              maxMessageBytes);
    }
  }

  /** The {@code [logging]} section. */
  public record Logging(String level, Path file) {}
}
