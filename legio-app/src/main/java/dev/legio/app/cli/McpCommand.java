package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.mcp.McpStdio;
import dev.legio.tools.Toolset;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    subcommands = {McpCommand.Config.class, McpCommand.Token.class},
    description = {
      "Serve one agent's tools over MCP on stdin and stdout, until stdin closes: memoria's, scoped"
          + " to that agent (for the legatus, also get_history, post_nuntius, dispatch,"
          + " list_centuriones, get_status, reset_session).",
      "This is what the Claude Code CLI runs (--mcp-config); `legio mcp config --agent NAME`"
          + " prints that configuration."
    })
final class McpCommand implements Callable<Integer> {
  @ParentCommand LegioCommand root;

  @Option(
      names = "--agent",
      paramLabel = "NAME",
      description = "Whose tools to serve: a centurio, or legatus.")
  String agent;

  @Override
  public Integer call() throws InterruptedException {
    if (agent == null) {
      throw new IllegalArgumentException(
          "give --agent NAME: the agent whose tools to serve (legio mcp --agent vorenus)");
    }
    try (LegioApp app = root.app()) {
      Toolset tools = app.toolsFor(agent);
      InputStream in =
          root.context.terminalInput() != null ? root.context.terminalInput() : System.in;
      OutputStream out =
          root.context.terminalOutput() != null ? root.context.terminalOutput() : System.out;
      McpStdio.serve(agent, tools, in, out);
    }
    return 0;
  }

  @Command(
      name = "config",
      mixinStandardHelpOptions = true,
      description =
          "Print the JSON for the Claude Code CLI's --mcp-config that serves NAME's tools from"
              + " this workspace.")
  static final class Config implements Callable<Integer> {
    @ParentCommand McpCommand parent;

    @Option(names = "--agent", paramLabel = "NAME", required = true, description = "The agent.")
    String agent;

    @Override
    public Integer call() {
      try (LegioApp app = parent.root.app()) {
        app.toolsFor(agent); // refuses an unknown agent
        parent.root.out.println(app.mcpConfigJson(agent));
      }
      return 0;
    }
  }

  @Command(
      name = "token",
      mixinStandardHelpOptions = true,
      description = {
        "Print NAME's bearer token for MCP over HTTP (legio serve), creating it if needed.",
        "It is kept in castra/mcp/tokens/NAME, readable by its owner only. Anyone holding it acts"
            + " with NAME's rights."
      })
  static final class Token implements Callable<Integer> {
    @ParentCommand McpCommand parent;

    @Parameters(paramLabel = "NAME", description = "A centurio, or legatus.")
    String agent;

    @Override
    public Integer call() {
      try (LegioApp app = parent.root.app()) {
        app.toolsFor(agent); // refuses an unknown agent
        parent.root.out.println(app.mcpTokens().tokenFor(agent));
      }
      return 0;
    }
  }
}
