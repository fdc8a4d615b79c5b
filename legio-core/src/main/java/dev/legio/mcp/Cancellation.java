package dev.legio.mcp;

import dev.legio.errors.Quoted;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Optional;

/**
 * A client's {@code notifications/cancelled} (MCP 2025-06-18, "Cancellation"): the request it no
 * longer wants answered, and why.
 *
 * <p>What Legio's transports do with it ({@code StdioTransport}, and the HTTP transport of {@code
 * legio serve}):
 *
 * <ul>
 *   <li>The request is found by its id among those still running; an unknown or finished id, an
 *       {@code initialize}, or a notification whose {@code requestId} is not a string or an integer
 *       is ignored.
 *   <li>The request is never answered: a tool call not yet begun never runs, one running has its
 *       thread interrupted ({@link RunningCall}), and whatever answer comes after is dropped.
 *   <li>The notification never reaches the SDK's session (which would log it whole); Legio logs it
 *       at debug level, the id and reason {@link Quoted}.
 * </ul>
 */
public record Cancellation(Object requestId, String reason) {
  /** The notification's method. */
  public static final String METHOD = "notifications/cancelled";

  /** True when {@code message} is a {@code notifications/cancelled}, well-formed or not. */
  public static boolean is(McpSchema.JSONRPCMessage message) {
    return message instanceof McpSchema.JSONRPCNotification n && METHOD.equals(n.method());
  }

  /**
   * The cancellation {@code message} asks for; empty when it is no {@code notifications/cancelled}
   * or does not name a request (MCP: such a notification is ignored).
   */
  public static Optional<Cancellation> of(McpSchema.JSONRPCMessage message) {
    if (!is(message)
        || !(((McpSchema.JSONRPCNotification) message).params() instanceof Map<?, ?> p)) {
      return Optional.empty();
    }
    Object id = p.get("requestId");
    boolean integral =
        id instanceof Integer || id instanceof Long || id instanceof java.math.BigInteger;
    if (!(integral || id instanceof String)) {
      return Optional.empty();
    }
    return Optional.of(
        new Cancellation(id, p.get("reason") instanceof String reason ? reason : null));
  }

  /** The request's id as the transports key their requests ({@link RequestIdKey}). */
  public Object key() {
    return RequestIdKey.of(requestId);
  }

  /** The id and the reason, quoted, for a log line. */
  public String describe() {
    return "request "
        + Quoted.of(String.valueOf(requestId))
        + (reason == null ? "" : " (reason: " + Quoted.of(reason) + ")");
  }
}
