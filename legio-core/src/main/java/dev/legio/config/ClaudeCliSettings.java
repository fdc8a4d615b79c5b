package dev.legio.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The {@code [backend.claude_cli]} sub-table: how the Claude Code CLI is run (when {@code [backend]
 * kind} is or detects {@code claude-cli}).
 *
 * @param binary the {@code claude} executable: a path, or a name looked up on the PATH ({@code
 *     "claude"} also falls back to Legio's npm cache folder)
 * @param perTurn true for one process per turn ({@code mode = "per_turn"}), false for one
 *     long-lived process per session ({@code mode = "persistent"})
 * @param permissionMode the CLI's {@code --permission-mode}; empty: the CLI's default
 * @param allowedTools the CLI's {@code --allowedTools}
 * @param turnTimeout the longest one turn may take before the process is stopped
 * @param mcpConfig an MCP configuration file passed with {@code --mcp-config}, or null
 * @param hideSecretsFromAgents true to make Legio's process unreadable to the CLI and the commands
 *     its agents run ({@code hide_secrets_from_agents}, default true)
 */
public record ClaudeCliSettings(
    String binary,
    boolean perTurn,
    String permissionMode,
    List<String> allowedTools,
    Duration turnTimeout,
    Path mcpConfig,
    boolean hideSecretsFromAgents) {

  /** The CLI's spellings of its permission modes (the file may use any case). */
  public static final List<String> PERMISSION_MODES =
      List.of("default", "acceptEdits", "bypassPermissions", "plan", "dontAsk");

  private static final List<String> MODES = List.of("persistent", "per_turn");

  public static ClaudeCliSettings defaults() {
    return new ClaudeCliSettings(
        "claude", false, "default", List.of(), Duration.ofSeconds(600), null, true);
  }

  /** Reads {@code [backend.claude_cli]}; a {@code binary} with a slash is a path. */
  static ClaudeCliSettings read(TomlTable t, Path base) {
    ClaudeCliSettings d = defaults();
    String binary = t.string("binary", d.binary());
    if (binary.isBlank()) {
      throw t.error("binary", "a path or a command name", "\"\"");
    }
    if (binary.contains("/")) {
      binary = base.resolve(binary).normalize().toString();
    }
    String mode = t.choice("mode", MODES.get(d.perTurn() ? 1 : 0), MODES);
    List<String> lowerModes =
        PERMISSION_MODES.stream().map(m -> m.toLowerCase(Locale.ROOT)).toList();
    String permission =
        t.choice("permission_mode", d.permissionMode().toLowerCase(Locale.ROOT), lowerModes);
    List<String> allowed = t.strings("allowed_tools", "[\"Read\", \"mcp__memoria\"]");
    long timeout = t.integer("turn_timeout_seconds", d.turnTimeout().toSeconds(), 1, 86_400);
    String mcp = t.string("mcp_config", "");
    boolean hide = t.bool("hide_secrets_from_agents", d.hideSecretsFromAgents());
    return new ClaudeCliSettings(
        binary,
        mode.equals("per_turn"),
        PERMISSION_MODES.get(lowerModes.indexOf(permission)),
        allowed,
        Duration.ofSeconds(timeout),
        mcp.isBlank() ? null : base.resolve(mcp).normalize(),
        hide);
  }
}
