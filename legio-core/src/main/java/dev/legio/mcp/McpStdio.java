package dev.legio.mcp;

import dev.legio.tools.Toolset;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;

/**
 * {@code legio mcp --agent NAME}: one caller's toolset served over stdin and stdout until stdin
 * closes (the client went away). Nothing but the protocol may be written to {@code out}.
 */
public final class McpStdio {
  private McpStdio() {}

  /** Serves until {@code in} ends; then closes the server and returns. */
  public static void serve(String caller, Toolset tools, InputStream in, OutputStream out)
      throws InterruptedException {
    CountDownLatch ended = new CountDownLatch(1);
    InputStream watched =
        new FilterInputStream(in) {
          @Override
          public int read() throws IOException {
            return ended(super.read());
          }

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            return ended(super.read(b, off, len));
          }

          private int ended(int n) {
            if (n < 0) {
              ended.countDown();
            }
            return n;
          }
        };
    StdioServerTransportProvider transport =
        new StdioServerTransportProvider(McpToolServer.JSON_MAPPER, watched, out);
    McpSyncServer server = McpToolServer.serve(transport, caller, tools);
    try {
      ended.await();
    } finally {
      server.closeGracefully();
    }
  }
}
