package dev.legio.backend.claudecli;

import dev.legio.backend.SessionSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where a session's MCP servers (Legio's memory tools) are described for the CLI: the value of its
 * {@code --mcp-config} option, a file path or a JSON string. Per session, so tools can be scoped to
 * the agent that calls them.
 */
@FunctionalInterface
public interface McpConfigSource {

  /** The {@code --mcp-config} value for this session, or empty for none. */
  Optional<String> forSession(SessionSpec spec);

  /**
   * Tools of those servers the session may use without asking (added to {@code --allowedTools}),
   * e.g. {@code mcp__memoria_vorenus} for every tool of that server. None by default.
   */
  default List<String> allowedTools(SessionSpec spec) {
    return List.of();
  }

  /** No MCP servers. */
  static McpConfigSource none() {
    return spec -> Optional.empty();
  }

  /** The same configuration file for every session. */
  static McpConfigSource file(Path path) {
    String value = path.toAbsolutePath().toString();
    return spec -> Optional.of(value);
  }
}
