package dev.legio.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A JSON-RPC error answer Legio sends itself (not through the SDK): the request's id, or {@code
 * null} when none could be read, a standard code, and a message a person can act on. Never a stack
 * trace, a class name or a JDK version: the message is written for the caller, and the details go
 * to Legio's log only.
 *
 * @param id the request's id ({@link NullNode} when it could not be read)
 * @param code one of the codes below
 * @param message what went wrong and what to send instead
 */
public record JsonRpcError(JsonNode id, int code, String message) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The text is not JSON. */
  public static final int PARSE_ERROR = -32700;

  /** JSON, but not a JSON-RPC 2.0 request, notification or response. */
  public static final int INVALID_REQUEST = -32600;

  /** No such method. */
  public static final int METHOD_NOT_FOUND = -32601;

  /** The method exists, its params do not fit (an unknown tool, params not an object...). */
  public static final int INVALID_PARAMS = -32602;

  /** Legio failed to answer (the log says why). */
  public static final int INTERNAL_ERROR = -32603;

  /** A transport-level refusal (origin, session, headers): MCP's server error range. */
  public static final int SERVER_ERROR = -32000;

  /**
   * A request naming a session the server does not have (it ended, or the server restarted), with
   * HTTP 404. The code is the one the MCP TypeScript SDK's servers answer, and what clients built
   * on it read as "initialize again and retry": the Claude Code CLI re-initialises and runs the
   * tool call again only on a 404 carrying this code; with {@link #SERVER_ERROR} the call failed.
   */
  public static final int SESSION_NOT_FOUND = -32001;

  public JsonRpcError {
    id = id == null || id.isMissingNode() ? NullNode.getInstance() : id;
  }

  /** An error with no id to answer to. */
  public static JsonRpcError withoutId(int code, String message) {
    return new JsonRpcError(NullNode.getInstance(), code, message);
  }

  /** The whole answer: {@code {"jsonrpc":"2.0","id":...,"error":{"code":...,"message":...}}}. */
  public ObjectNode toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("jsonrpc", "2.0");
    root.set("id", id);
    ObjectNode error = root.putObject("error");
    error.put("code", code);
    error.put("message", message);
    return root;
  }

  /** {@link #toJson()} as one line of text. */
  public String toJsonText() {
    return toJson().toString();
  }
}
