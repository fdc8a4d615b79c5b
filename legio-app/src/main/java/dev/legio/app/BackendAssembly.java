package dev.legio.app;

import dev.legio.backend.ContextWindows;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.anthropic.AnthropicBackend;
import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.backend.claudecli.ClaudeCliBinary;
import dev.legio.backend.claudecli.McpConfigSource;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.backend.ollama.OllamaBackend;
import dev.legio.backend.openai.OpenAiBackend;
import dev.legio.config.ClaudeCliSettings;
import dev.legio.config.ConfigException;
import dev.legio.config.LegioConfig;
import java.nio.file.Path;
import java.util.Map;

/**
 * Builds the model back-end of a kind from its {@code [backend]} section: the HTTP back-ends keep
 * their conversations in the app's store and call the session's tools; the Claude Code CLI gets
 * Legio's memory tools over MCP ({@link LegioApp#memoriaOverMcp()}) unless {@code [claude_cli]
 * mcp_config} names a file, and not the gateways' secrets ({@link CliEnvironment}), nor, on Linux,
 * a way to read Legio's own environment ({@link ProcessSecretsGuard}). An unknown kind is a
 * configuration error naming the choices.
 */
final class BackendAssembly {
  private BackendAssembly() {}

  static ModelBackend build(LegioApp app, String kind, LegioConfig.Backend b) {
    LegioConfig config = app.config();
    RetryPolicy.Sleeper sleeper = RetryPolicy.Sleeper.REAL;
    return switch (kind) {
      // [backend.context_windows] offline = N states the offline model's window.
      case OfflineBackend.KIND ->
          new OfflineBackend(ContextWindows.hosted(b.contextWindows()).of(OfflineBackend.KIND));
      case AnthropicBackend.KIND ->
          AnthropicBackend.create(
              b, config.context(), app.conversations(), app::sessionTools, app.clock(), sleeper);
      case OpenAiBackend.KIND ->
          OpenAiBackend.create(
              b, config.context(), app.conversations(), app::sessionTools, app.clock(), sleeper);
      case OllamaBackend.KIND ->
          OllamaBackend.create(
              b, config.context(), app.conversations(), app::sessionTools, app.clock(), sleeper);
      case ClaudeCliBackend.KIND -> claudeCli(app, config.claudeCli(), b.contextWindows());
      default ->
          throw new ConfigException(
              "[backend] kind = \""
                  + kind
                  + "\" is not a back-end; choose \"auto\", \"offline\", \"claude-cli\","
                  + " \"anthropic\", \"openai\" or \"ollama\"");
    };
  }

  private static ModelBackend claudeCli(
      LegioApp app, ClaudeCliSettings c, Map<String, Integer> contextWindows) {
    Path executable;
    try {
      executable = ClaudeCliBinary.locate(c.binary(), app.env());
    } catch (ClaudeCliBinary.NotFoundException e) {
      throw new ConfigException(app.workspace().configFile() + ": " + e.getMessage());
    }
    if (c.hideSecretsFromAgents()) {
      ProcessSecretsGuard.apply(); // before the first CLI process starts
    } else {
      ProcessSecretsGuard.lift();
    }
    return new ClaudeCliBackend(
        new ClaudeCliBackend.Options(
                executable,
                c.perTurn() ? ClaudeCliBackend.Mode.PER_TURN : ClaudeCliBackend.Mode.PERSISTENT,
                c.permissionMode(),
                c.allowedTools(),
                c.turnTimeout(),
                app.workspace().root(),
                Map.of("DISABLE_AUTOUPDATER", "1"),
                c.mcpConfig() == null ? app.memoriaOverMcp() : McpConfigSource.file(c.mcpConfig()),
                contextWindows)
            .withholding(CliEnvironment.withheld(app.config())));
  }
}
