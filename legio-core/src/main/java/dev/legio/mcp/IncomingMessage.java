package dev.legio.mcp;

import io.modelcontextprotocol.spec.McpSchema;

/**
 * One message a client sent, as {@link IncomingMessageCheck} judged it: either a JSON-RPC message
 * the SDK's server session may handle, or an error to answer at once (and nothing to hand on).
 */
public sealed interface IncomingMessage {
  /** A well-formed request, notification or response, already read into the SDK's types. */
  record Accepted(McpSchema.JSONRPCMessage message) implements IncomingMessage {
    /** The request's method, when it is a request. */
    public boolean isRequest(String method) {
      return message instanceof McpSchema.JSONRPCRequest r && r.method().equals(method);
    }
  }

  /**
   * A message that must not reach the SDK; {@code answer} is what to send back, or {@code null}
   * when nothing may be sent (a notification with bad params: JSON-RPC never answers those).
   */
  record Rejected(JsonRpcError answer) implements IncomingMessage {}
}
