package dev.legio.mcp;

/**
 * A JSON-RPC request id as a map key: a number as a {@code long} (so {@code 7} read as an int and
 * as a long are one request), anything else as its text.
 */
public final class RequestIdKey {
  private RequestIdKey() {}

  public static Object of(Object requestId) {
    return requestId instanceof Number n ? (Object) n.longValue() : String.valueOf(requestId);
  }
}
