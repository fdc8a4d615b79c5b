package dev.legio.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.log.Names;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.ToolResult;
import dev.legio.tools.Toolset;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.List;
import java.util.Map;

/**
 * Serves a {@link Toolset} with the official MCP Java SDK, over whatever transport it is given
 * (stdio for {@code legio mcp}, streamable HTTP for {@code legio serve}). The tools are the
 * toolset's: same names, descriptions, schemas and handlers on every transport.
 *
 * <p>Each tool has Legio's {@link ToolOutput#SCHEMA output schema}; each result carries its text
 * (XML or a sentence) and the same as {@code structuredContent}. The server also answers {@code
 * logging/setLevel} (it sends no log notifications today).
 *
 * <p>A tool call runs under the {@link RunningCall} its transport gave it, when there is one: a
 * call the client cancelled before it began never runs, one cancelled while it runs is interrupted.
 */
public final class McpToolServer {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The JSON mapper Legio's MCP servers and clients use (Jackson 2, like the rest of Legio). */
  public static final McpJsonMapper JSON_MAPPER = new JacksonMcpJsonMapper(JSON);

  private McpToolServer() {}

  /**
   * The MCP server's name for a caller, as in Legio: {@code legatus_tools} for the legatus, {@code
   * memoria_NAME} for an agent. The Claude Code CLI names the tools {@code mcp__SERVER__TOOL}.
   */
  public static String serverName(String caller) {
    return Names.LEGATUS.equals(caller) ? "legatus_tools" : "memoria_" + caller;
  }

  /** A server over a single-session transport (stdio). */
  public static McpSyncServer serve(
      McpServerTransportProvider transport, String caller, Toolset tools) {
    return McpServer.sync(transport)
        .jsonMapper(JSON_MAPPER)
        .serverInfo(serverName(caller), version())
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).logging().build())
        .tools(specifications(tools))
        // The toolset checks input itself, naming the parameter, and its refusal still carries
        // structured content (the SDK's own check answers without it).
        .validateToolInputs(false)
        .build();
  }

  /** A server over a streamable HTTP transport. */
  public static McpSyncServer serve(
      McpStreamableServerTransportProvider transport, String caller, Toolset tools) {
    return McpServer.sync(transport)
        .jsonMapper(JSON_MAPPER)
        .serverInfo(serverName(caller), version())
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).logging().build())
        .tools(specifications(tools))
        // The toolset checks input itself, naming the parameter, and its refusal still carries
        // structured content (the SDK's own check answers without it).
        .validateToolInputs(false)
        .build();
  }

  /**
   * The check every message to this toolset's server passes before the SDK sees it (the tool names
   * are read at each {@code tools/call}, so an unknown tool's error lists the current ones).
   */
  public static IncomingMessageCheck check(Toolset tools) {
    return new IncomingMessageCheck(
        () -> tools.tools().stream().map(ToolDefinition::name).toList());
  }

  /** The toolset's tools as the SDK's specifications, each calling {@link Toolset#call}. */
  public static List<SyncToolSpecification> specifications(Toolset tools) {
    return tools.tools().stream().map(t -> specification(tools, t)).toList();
  }

  private static SyncToolSpecification specification(Toolset tools, ToolDefinition tool) {
    McpSchema.Tool described =
        McpSchema.Tool.builder()
            .name(tool.name())
            .description(tool.description())
            .inputSchema(tool.inputSchemaMap())
            .outputSchema(ToolOutput.SCHEMA)
            .build();
    return SyncToolSpecification.builder()
        .tool(described)
        .callHandler(
            (exchange, request) -> {
              RunningCall call = RunningCall.of(exchange);
              if (call != null && !call.begin()) {
                // cancelled before it began: never run, and the transport sends no answer
                return McpSchema.CallToolResult.builder()
                    .addTextContent("cancelled by the client")
                    .isError(true)
                    .build();
              }
              ToolResult result;
              try {
                result = tools.call(tool.name(), json(request.arguments()));
              } finally {
                if (call != null) {
                  call.end();
                }
              }
              return McpSchema.CallToolResult.builder()
                  .addTextContent(result.text())
                  .structuredContent(ToolOutput.of(result))
                  .isError(result.error())
                  .build();
            })
        .build();
  }

  private static String json(Map<String, Object> arguments) {
    if (arguments == null) {
      return "{}";
    }
    try {
      return JSON.writeValueAsString(arguments);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode tool arguments", e);
    }
  }

  private static String version() {
    String v = McpToolServer.class.getPackage().getImplementationVersion();
    return v == null ? "development" : v;
  }
}
