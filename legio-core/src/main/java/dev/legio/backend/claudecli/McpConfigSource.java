package dev.legio.backend.claudecli;

import dev.legio.backend.SessionSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a session's MCP servers (Legio's memory tools) are described for the CLI: the value of its
 * {@code --mcp-config} option, a file path or a JSON string, and the environment variables that
 * value names (a server's bearer token: the CLI expands {@code ${VAR}} in a server's headers, so a
 * secret never needs to be on the command line or in a file). Per session, so tools can be scoped
 * to the agent that calls them. A session asks {@link #forSession} first, then {@link
 * #environment}, once each, when it opens.
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

  /**
   * Variables the session's CLI processes get in their environment besides the back-end's, e.g. the
   * token a server's {@code Authorization} header names. None by default.
   */
  default Map<String, String> environment(SessionSpec spec) {
    return Map.of();
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
