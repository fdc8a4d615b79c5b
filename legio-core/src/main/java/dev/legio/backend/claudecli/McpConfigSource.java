package dev.legio.backend.claudecli;

import dev.legio.backend.SessionSpec;
import java.nio.file.Path;
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
