package dev.legio.app;

import dev.legio.backend.SessionSpec;
import dev.legio.backend.claudecli.McpConfigSource;
import dev.legio.log.Names;
import dev.legio.mcp.McpConfigFile;
import dev.legio.mcp.McpToolServer;
import dev.legio.memoria.MemoryTools;
import dev.legio.session.LegatusTools;
import dev.legio.session.Owner;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.Toolbox;
import dev.legio.tools.Toolset;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which of Legio's tools each caller gets.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>An MCP caller ({@code legio mcp --agent NAME}): the legatus gets memoria as the legatus
 *       plus the legatus's tools (history, posting, dispatch); a centurio memoria scoped to it.
 *   <li>A session of an HTTP back-end, by its role: {@code chat} (a public chat channel, see {@code
 *       [channels.roles]}; also any role but {@code operator}) reads only, {@link
 *       MemoryTools#forReader}: edicta and acta, no commentarii, no history, nothing that writes or
 *       acts; {@code operator} on a channel ({@code telegram:123}) gets the legatus's tools, since
 *       the channel speaks for the legatus; otherwise (the legatus, a centurio) the owner's own.
 *   <li>A Claude Code CLI session gets the same over MCP, with every tool of that server allowed,
 *       CALLER being the legatus for an operator channel; a public chat channel gets none (its CLI
 *       runs without Legio's tools). Which MCP server:
 *       <ul>
 *         <li>once this process serves MCP over HTTP ({@code legio serve}, {@link #serveOverHttp}):
 *             that endpoint, as {@link McpConfigFile#httpJson}, with CALLER's MCP token put in the
 *             CLI's environment only ({@link McpConfigFile#TOKEN_VARIABLE}, expanded by the CLI in
 *             the {@code Authorization} header): the endpoint maps the token to CALLER and serves
 *             it {@link #forCaller}, the same tools as stdio; no process is started for them;
 *         <li>otherwise ({@code legio say}, {@code legio chat}): the CLI starts {@code legio mcp
 *             --agent CALLER} over stdio ({@link McpConfigFile#json}).
 *       </ul>
 * </ul>
 */
final class SessionToolsets {
  private final LegioApp app;

  /** The MCP endpoint this process serves, as the CLI reaches it; null until it serves one. */
  private volatile URI servedOverHttp;

  SessionToolsets(LegioApp app) {
    this.app = app;
  }

  /**
   * From now on, CLI sessions that open reach their tools at {@code endpoint} (this process's MCP
   * over HTTP) instead of starting {@code legio mcp}. Sessions already open keep their server.
   */
  void serveOverHttp(URI endpoint) {
    servedOverHttp = java.util.Objects.requireNonNull(endpoint);
  }

  Toolset forCaller(String caller) {
    if (Names.LEGATUS.equals(caller)) {
      return new Toolbox(caller, legatusTools(caller));
    }
    return new Toolbox(caller, MemoryTools.forAgent(app.memoria().forAgent(caller)));
  }

  Toolset forSession(SessionSpec spec) {
    String owner = spec.owner();
    if (!SessionSpec.OPERATOR_ROLE.equals(spec.role())) {
      return new Toolbox(owner, MemoryTools.forReader(app.memoria().forLegatus(Names.LEGATUS)));
    }
    if (Owner.of(owner).isChannel()) {
      return new Toolbox(owner, legatusTools(owner));
    }
    return forCaller(owner);
  }

  McpConfigSource overMcp() {
    return new McpConfigSource() {
      @Override
      public Optional<String> forSession(SessionSpec spec) {
        return mcpCaller(spec).map(SessionToolsets.this::cliMcpConfig);
      }

      // Set once and never unset: a session that read no endpoint in forSession and reads one
      // here gets an unused variable; the reverse cannot happen (forSession is asked first).
      @Override
      public Map<String, String> environment(SessionSpec spec) {
        if (servedOverHttp == null) {
          return Map.of();
        }
        return mcpCaller(spec)
            .map(c -> Map.of(McpConfigFile.TOKEN_VARIABLE, app.mcpTokens().tokenFor(c)))
            .orElse(Map.of());
      }

      @Override
      public List<String> allowedTools(SessionSpec spec) {
        return mcpCaller(spec)
            .map(c -> List.of("mcp__" + McpToolServer.serverName(c)))
            .orElse(List.of());
      }
    };
  }

  /** The {@code --mcp-config} of a CLI session of {@code caller}: HTTP when served, else stdio. */
  private String cliMcpConfig(String caller) {
    URI endpoint = servedOverHttp;
    return endpoint != null ? McpConfigFile.httpJson(endpoint, caller) : mcpConfigJson(caller);
  }

  /**
   * The {@code --mcp-config} JSON that makes the Claude Code CLI start {@code legio mcp --agent
   * caller} for this workspace (the same Java and class path as this process).
   */
  String mcpConfigJson(String caller) {
    return McpConfigFile.json(LegioCommandLine.ofThisProcess(), app.workspace().root(), caller);
  }

  private static Optional<String> mcpCaller(SessionSpec spec) {
    if (!SessionSpec.OPERATOR_ROLE.equals(spec.role())) {
      return Optional.empty();
    }
    return Optional.of(Owner.of(spec.owner()).isChannel() ? Names.LEGATUS : spec.owner());
  }

  /**
   * The legatus's tools, for {@code caller}: the legatus, or an operator channel speaking for it.
   */
  private List<ToolDefinition> legatusTools(String caller) {
    List<ToolDefinition> tools = new ArrayList<>();
    tools.addAll(MemoryTools.forLegatus(app.memoria().forLegatus(Names.LEGATUS)));
    tools.addAll(LegatusTools.definitions(app::messageLog, app::engine, caller));
    return tools;
  }
}
