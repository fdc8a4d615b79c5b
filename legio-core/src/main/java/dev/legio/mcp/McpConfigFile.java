package dev.legio.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;

/**
 * The MCP configuration the Claude Code CLI takes with {@code --mcp-config}: one stdio server that
 * runs {@code legio --castra DIR mcp --agent NAME}, so the agent's session gets its own scoped
 * tools.
 *
 * <pre>{@code
 * {"mcpServers": {"memoria_vorenus": {"type": "stdio", "command": "/usr/bin/java",
 *   "args": ["-cp", "...", "dev.legio.app.cli.Main", "--castra", "/ws", "mcp", "--agent", "vorenus"]}}}
 * }</pre>
 */
public final class McpConfigFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  private McpConfigFile() {}

  /**
   * @param legioCommand the command line that runs {@code legio} (the first element is the
   *     program), e.g. {@code [java, -cp, CLASSPATH, dev.legio.app.cli.Main]}
   * @param workspace the workspace root ({@code --castra})
   * @param caller the agent (or {@code legatus}) whose tools the server serves
   */
  public static String json(List<String> legioCommand, Path workspace, String caller) {
    if (legioCommand.isEmpty()) {
      throw new IllegalArgumentException("the legio command is empty");
    }
    ObjectNode root = JSON.createObjectNode();
    ObjectNode server = root.putObject("mcpServers").putObject(McpToolServer.serverName(caller));
    server.put("type", "stdio");
    server.put("command", legioCommand.get(0));
    ArrayNode args = server.putArray("args");
    legioCommand.subList(1, legioCommand.size()).forEach(args::add);
    args.add("--castra").add(workspace.toAbsolutePath().toString());
    args.add("mcp").add("--agent").add(caller);
    return root.toPrettyString();
  }

  /**
   * The tool names the Claude Code CLI gives a caller's MCP tools ({@code
   * mcp__memoria_vorenus__list_edicta}), e.g. for {@code --allowedTools}.
   */
  public static List<String> claudeToolNames(String caller, List<String> toolNames) {
    String prefix = "mcp__" + McpToolServer.serverName(caller) + "__";
    return toolNames.stream().map(n -> prefix + n).toList();
  }
}
