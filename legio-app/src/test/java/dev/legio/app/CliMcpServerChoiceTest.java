package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.mcp.LocalMcpEndpoint;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.claudecli.McpConfigSource;
import dev.legio.mcp.McpConfigFile;
import dev.legio.testing.MutableClock;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which MCP server a Claude Code CLI session is given ({@code SessionToolsets}): {@code legio mcp}
 * over stdio until the process serves MCP over HTTP, then that endpoint, with the caller's token in
 * the CLI's environment and nowhere in the configuration.
 */
class CliMcpServerChoiceTest {
  @TempDir Path dir;
  private LegioApp app;
  private McpConfigSource source;

  @BeforeEach
  void open() {
    Workspace workspace = new Workspace(dir);
    WorkspaceInitializer.initialise(workspace);
    app = LegioApp.open(workspace, Map.of(), MutableClock.at("2026-03-01T09:00:00Z"));
    source = app.memoriaOverMcp();
  }

  @AfterEach
  void close() {
    app.close();
  }

  private static SessionSpec spec(String owner, String role) {
    return new SessionSpec(owner, "prompt", null, role, null);
  }

  @Test
  void withoutAServerTheCliStartsLegioMcpOverStdioAndGetsNoToken() {
    SessionSpec vorenus = spec("vorenus", SessionSpec.OPERATOR_ROLE);

    assertThat(source.forSession(vorenus).orElseThrow())
        .contains("\"type\" : \"stdio\"", "\"mcp\"", "\"--agent\"", "\"vorenus\"");
    assertThat(source.environment(vorenus)).isEmpty();
  }

  @Test
  void servedOverHttpACenturioGetsTheEndpointAndItsOwnTokenOnlyInTheEnvironment() {
    app.mcpServedAt(LocalMcpEndpoint.of("0.0.0.0", 8740));
    SessionSpec vorenus = spec("vorenus", SessionSpec.OPERATOR_ROLE);
    String token = app.mcpTokens().tokenFor("vorenus");

    String config = source.forSession(vorenus).orElseThrow();

    assertThat(config)
        .contains("\"memoria_vorenus\"", "\"type\" : \"http\"", "http://127.0.0.1:8740/mcp")
        .contains("Bearer ${LEGIO_MCP_TOKEN}")
        .doesNotContain(token, "stdio", "--agent");
    assertThat(source.environment(vorenus)).isEqualTo(Map.of(McpConfigFile.TOKEN_VARIABLE, token));
    assertThat(source.allowedTools(vorenus)).containsExactly("mcp__memoria_vorenus");
  }

  @Test
  void servedOverHttpAnOperatorChannelGetsTheLegatusTokenAndAChatChannelNothing() {
    app.mcpServedAt(LocalMcpEndpoint.of("127.0.0.1", 8740));
    SessionSpec operator = spec("telegram:1", SessionSpec.OPERATOR_ROLE);
    SessionSpec chat = spec("telegram:2", SessionSpec.CHAT_ROLE);

    assertThat(source.forSession(operator).orElseThrow())
        .contains("\"legatus_tools\"", "\"type\" : \"http\"");
    assertThat(source.environment(operator))
        .isEqualTo(Map.of(McpConfigFile.TOKEN_VARIABLE, app.mcpTokens().tokenFor("legatus")));
    assertThat(source.forSession(chat)).isEmpty();
    assertThat(source.environment(chat)).isEmpty();
    assertThat(source.allowedTools(chat)).isEmpty();
  }
}
