package dev.legio.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * The MCP configuration the Claude Code CLI takes with {@code --mcp-config}: one server named for
 * the caller, so the agent's session gets its own scoped tools. Two forms:
 *
 * <ul>
 *   <li>{@link #json}: a stdio server that runs {@code legio --castra DIR mcp --agent NAME} (a JVM
 *       per CLI process), where no Legio server runs in the process ({@code legio say}, {@code
 *       legio chat}):
 *       <pre>{@code
 * {"mcpServers": {"memoria_vorenus": {"type": "stdio", "command": "/usr/bin/java",
 *   "args": ["-cp", "...", "dev.legio.app.cli.Main", "--castra", "/ws", "mcp", "--agent", "vorenus"]}}}
 * }</pre>
 *   <li>{@link #httpJson}: the running server's MCP endpoint over HTTP, nothing started:
 *       <pre>{@code
 * {"mcpServers": {"memoria_vorenus": {"type": "http", "url": "http://127.0.0.1:8740/mcp",
 *   "headers": {"Authorization": "Bearer ${LEGIO_MCP_TOKEN}"}}}}
 * }</pre>
 *       The token itself is never in the configuration (which is on the CLI's command line): the
 *       CLI replaces {@code ${LEGIO_MCP_TOKEN}} with that variable of its own environment ({@link
 *       #TOKEN_VARIABLE}), which is where the caller's token must be put.
 * </ul>
 */
public final class McpConfigFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The CLI's environment variable that {@link #httpJson}'s {@code Authorization} header names. */
  public static final String TOKEN_VARIABLE = "LEGIO_MCP_TOKEN";

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
   * The configuration that connects the CLI to {@code endpoint} over MCP's streamable HTTP, with
   * the bearer token taken from the CLI's environment variable {@link #TOKEN_VARIABLE}.
   *
   * @param endpoint the MCP endpoint as the CLI reaches it, e.g. {@code http://127.0.0.1:8740/mcp}
   * @param caller the agent (or {@code legatus}) whose token the variable holds
   */
  public static String httpJson(URI endpoint, String caller) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode server = root.putObject("mcpServers").putObject(McpToolServer.serverName(caller));
    server.put("type", "http");
    server.put("url", endpoint.toString());
    server.putObject("headers").put("Authorization", "Bearer ${" + TOKEN_VARIABLE + "}");
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
