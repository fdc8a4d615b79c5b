package dev.legio.mcp;

import dev.legio.tools.Toolset;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * {@code legio mcp --agent NAME}: one caller's toolset served over stdin and stdout until stdin
 * closes (the client went away), through {@link StdioTransport}. Nothing but the protocol may be
 * written to {@code out}.
 */
public final class McpStdio {
  private McpStdio() {}

  /** Serves until {@code in} ends and the last answers are written; then closes and returns. */
  public static void serve(String caller, Toolset tools, InputStream in, OutputStream out)
      throws InterruptedException {
    StdioTransport transport = new StdioTransport(in, out, McpToolServer.check(tools));
    McpSyncServer server = McpToolServer.serve(transport, caller, tools);
    try {
      transport.awaitEnd();
    } finally {
      server.close();
    }
  }
}
