package dev.legio.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What leaves Legio when the SDK's session answers a request with an internal error: its message is
 * often a Java exception's ({@code Cannot invoke "io.modelcontextprotocol…" because … is null}), so
 * every {@code -32603} the SDK makes is logged as it is and sent as Legio's own message naming the
 * method, with no {@code data}. Other SDK errors ({@code -32601 Method not found: X}) pass
 * unchanged.
 */
public final class InternalErrors {
  private static final Logger log = LoggerFactory.getLogger(InternalErrors.class);

  private InternalErrors() {}

  /** The answer as the client gets it. */
  public static McpSchema.JSONRPCMessage guard(McpSchema.JSONRPCMessage message, String method) {
    if (!(message instanceof McpSchema.JSONRPCResponse r)
        || r.error() == null
        || r.error().code() == null
        || r.error().code() != JsonRpcError.INTERNAL_ERROR) {
      return message;
    }
    log.warn("MCP request {} failed: {}", method, r.error().message());
    return McpSchema.JSONRPCResponse.error(
        r.id(),
        new McpSchema.JSONRPCResponse.JSONRPCError(
            JsonRpcError.INTERNAL_ERROR, messageFor(method)));
  }

  /** The message of an internal error answering {@code method}. */
  public static String messageFor(String method) {
    return "internal error: Legio could not answer '"
        + (method == null ? "the request" : method)
        + "'; the server's log (castra/logs/legio.log) says why";
  }
}
