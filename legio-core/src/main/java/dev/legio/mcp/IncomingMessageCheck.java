package dev.legio.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.legio.errors.JsonSyntax;
import dev.legio.errors.Quoted;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads one message a client sent over any transport and decides, before the MCP SDK sees it,
 * whether it is a well-formed JSON-RPC 2.0 message Legio can answer. The SDK's transports stop
 * reading, answer nothing, or answer with a serialised Java exception when handed anything else;
 * this check is what keeps Legio's transports from ever doing so.
 *
 * <p>Rules, in order (the first that fails decides the answer):
 *
 * <ol>
 *   <li>Not JSON (or trailing garbage after it): {@code -32700}, id {@code null}, saying where and
 *       what in words ({@link JsonSyntax}), never the JSON library's class or feature names.
 *   <li>Not one JSON object ({@code null}, a number, a batch array): {@code -32600}, id {@code
 *       null}. MCP 2025-06-18 dropped batches; one message per line or per POST.
 *   <li>{@code "jsonrpc"} is not {@code "2.0"}, or the id is neither a string nor a number, or the
 *       message is neither a request/notification ({@code method} a string) nor a response ({@code
 *       id} with {@code result} or {@code error}): {@code -32600}, with the id when it could be
 *       read.
 *   <li>{@code params} present and not an object: {@code -32602}.
 *   <li>{@code tools/call}: {@code params.name} must be a string naming one of this caller's tools,
 *       {@code params.arguments} absent or an object: {@code -32602}, naming the tool called and
 *       the caller's tools.
 *   <li>{@code initialize}: {@code params} with a {@code protocolVersion} string, a {@code
 *       capabilities} object and a {@code clientInfo} object with a {@code name}: {@code -32602}.
 *   <li>{@code logging/setLevel}: {@code params.level} one of MCP's eight levels: {@code -32602}.
 *   <li>{@code initialize}, {@code tools/call}, {@code tools/list}: {@code params} must fit MCP's
 *       schema for that request (as the SDK reads it), else {@code -32602} naming the field whose
 *       value has the wrong type ({@code "params._meta" must be an object, got a string}), never
 *       the JSON library's message.
 * </ol>
 *
 * A notification that fails rules 4-6 gets no answer (JSON-RPC never answers notifications); it is
 * dropped.
 */
public final class IncomingMessageCheck {
  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  /** Reads params as the SDK does (its mapper's settings: Jackson's defaults). */
  private static final ObjectMapper PLAIN = new ObjectMapper();

  /** The SDK's type for the params of the requests whose params it reads. */
  private static final Map<String, Class<?>> PARAMS =
      Map.of(
          McpSchema.METHOD_INITIALIZE, McpSchema.InitializeRequest.class,
          McpSchema.METHOD_TOOLS_CALL, McpSchema.CallToolRequest.class,
          McpSchema.METHOD_TOOLS_LIST, McpSchema.PaginatedRequest.class);

  private static final List<String> LEVELS =
      List.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");

  private final Supplier<? extends Collection<String>> toolNames;

  /**
   * @param toolNames the caller's tool names, read when a {@code tools/call} is checked
   */
  public IncomingMessageCheck(Supplier<? extends Collection<String>> toolNames) {
    this.toolNames = toolNames;
  }

  /** Judges one message: the text of a stdio line or of a POST body. */
  public IncomingMessage check(String text) {
    JsonNode root;
    try {
      root = STRICT.readTree(text);
    } catch (JsonProcessingException e) {
      return reject(
          NullNode.getInstance(),
          JsonRpcError.PARSE_ERROR,
          "parse error: the message is not valid JSON"
              + JsonSyntax.where(e.getLocation())
              + " ("
              + Quoted.message(JsonSyntax.what(e))
              + "); send one JSON-RPC 2.0 object");
    }
    if (root == null || root.isMissingNode()) {
      return reject(
          NullNode.getInstance(),
          JsonRpcError.PARSE_ERROR,
          "parse error: the message is empty; send one JSON-RPC 2.0 object");
    }
    if (root.isArray()) {
      return reject(
          NullNode.getInstance(),
          JsonRpcError.INVALID_REQUEST,
          "invalid request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them);"
              + " send one message at a time");
    }
    if (!root.isObject()) {
      return reject(
          NullNode.getInstance(),
          JsonRpcError.INVALID_REQUEST,
          "invalid request: expected a JSON-RPC 2.0 object, got " + kind(root));
    }
    JsonNode id = root.get("id");
    boolean hasId = id != null && !id.isNull();
    if (hasId && !(id.isTextual() || id.isIntegralNumber())) {
      return reject(
          NullNode.getInstance(),
          JsonRpcError.INVALID_REQUEST,
          "invalid request: \"id\" must be a string or an integer, got " + kind(id));
    }
    JsonNode answerId = hasId ? id : NullNode.getInstance();
    JsonNode version = root.get("jsonrpc");
    if (version == null || !version.isTextual() || !version.asText().equals("2.0")) {
      return reject(
          answerId,
          JsonRpcError.INVALID_REQUEST,
          "invalid request: \"jsonrpc\" must be \"2.0\", got "
              + (version == null ? "nothing" : version.toString()));
    }
    JsonNode method = root.get("method");
    if (method == null) {
      if (hasId && (root.has("result") || root.has("error"))) {
        return accept(text, answerId);
      }
      return reject(
          answerId,
          JsonRpcError.INVALID_REQUEST,
          "invalid request: a message needs a \"method\" (a request or notification) or an"
              + " \"id\" with a \"result\" or \"error\" (a response)");
    }
    if (!method.isTextual() || method.asText().isEmpty()) {
      return reject(
          answerId,
          JsonRpcError.INVALID_REQUEST,
          "invalid request: \"method\" must be a non-empty string, got " + kind(method));
    }
    String name = method.asText();
    if (root.has("id") && !hasId) {
      return reject(
          answerId,
          JsonRpcError.INVALID_REQUEST,
          "invalid request: \"id\" must not be null; leave it out for a notification");
    }
    JsonNode params = root.get("params");
    if (params != null && !params.isObject() && !params.isNull()) {
      return rejectParams(
          hasId, answerId, name + ": \"params\" must be an object, got " + kind(params));
    }
    if (name.equals(McpSchema.METHOD_TOOLS_CALL)) {
      String problem = toolCallProblem(params);
      if (problem != null) {
        return rejectParams(hasId, answerId, problem);
      }
    }
    if (name.equals(McpSchema.METHOD_INITIALIZE)) {
      String problem = initializeProblem(params);
      if (problem != null) {
        return rejectParams(hasId, answerId, problem);
      }
    }
    if (name.equals(McpSchema.METHOD_LOGGING_SET_LEVEL)) {
      JsonNode level = params == null ? null : params.get("level");
      if (level == null || !level.isTextual() || !LEVELS.contains(level.asText())) {
        return rejectParams(
            hasId,
            answerId,
            "logging/setLevel: \"level\" must be one of " + String.join(", ", LEVELS));
      }
    }
    Class<?> type = PARAMS.get(name);
    if (type != null && params != null && !params.isNull()) {
      String problem = typeProblem(name, params, type);
      if (problem != null) {
        return rejectParams(hasId, answerId, problem);
      }
    }
    return accept(text, answerId);
  }

  /** The field of {@code params} the SDK could not read as {@code type}, or null when it can. */
  private static String typeProblem(String method, JsonNode params, Class<?> type) {
    try {
      PLAIN.treeToValue(params, type);
      return null;
    } catch (JsonProcessingException | IllegalArgumentException e) {
      StringBuilder field = new StringBuilder("params");
      JsonNode value = params;
      if (e instanceof JsonMappingException m) {
        for (JsonMappingException.Reference ref : m.getPath()) {
          if (ref.getFieldName() != null) {
            field.append('.').append(Quoted.of(ref.getFieldName()));
            value = value == null ? null : value.get(ref.getFieldName());
          } else if (ref.getIndex() >= 0) {
            field.append('[').append(ref.getIndex()).append(']');
            value = value == null ? null : value.get(ref.getIndex());
          }
        }
      }
      return method
          + ": \""
          + field
          + "\" has a value of the wrong type"
          + (value == null ? "" : " (" + kind(value) + ")")
          + "; see MCP's schema for "
          + method;
    }
  }

  private static String initializeProblem(JsonNode params) {
    if (params == null
        || !params.path("protocolVersion").isTextual()
        || !params.path("capabilities").isObject()
        || !params.path("clientInfo").isObject()
        || !params.path("clientInfo").path("name").isTextual()) {
      return "initialize needs \"params\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\":"
          + " {}, \"clientInfo\": {\"name\": ..., \"version\": ...}}";
    }
    return null;
  }

  private String toolCallProblem(JsonNode params) {
    if (params == null || params.isNull()) {
      return "tools/call needs \"params\": {\"name\": TOOL, \"arguments\": {...}}";
    }
    JsonNode tool = params.get("name");
    if (tool == null || !tool.isTextual()) {
      return "tools/call: \"params.name\" must be the tool's name (a string), got "
          + (tool == null ? "nothing" : kind(tool));
    }
    Collection<String> names = toolNames.get();
    if (!names.contains(tool.asText())) {
      return "unknown tool '"
          + tool.asText()
          + "'; this agent's tools are: "
          + String.join(", ", names);
    }
    JsonNode arguments = params.get("arguments");
    if (arguments != null && !arguments.isObject() && !arguments.isNull()) {
      return "tools/call '"
          + tool.asText()
          + "': \"arguments\" must be an object, got "
          + kind(arguments);
    }
    return null;
  }

  private static IncomingMessage accept(String text, JsonNode answerId) {
    try {
      return new IncomingMessage.Accepted(
          McpSchema.deserializeJsonRpcMessage(McpToolServer.JSON_MAPPER, text));
    } catch (Exception e) {
      return reject(
          answerId,
          JsonRpcError.INVALID_REQUEST,
          "invalid request: not a JSON-RPC 2.0 request, notification or response");
    }
  }

  private static IncomingMessage reject(JsonNode id, int code, String message) {
    return new IncomingMessage.Rejected(new JsonRpcError(id, code, message));
  }

  private static IncomingMessage rejectParams(boolean hasId, JsonNode id, String message) {
    return new IncomingMessage.Rejected(
        hasId ? new JsonRpcError(id, JsonRpcError.INVALID_PARAMS, message) : null);
  }

  private static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case NUMBER -> "a number";
      case OBJECT -> "an object";
      case STRING -> "a string";
      default -> "something else";
    };
  }
}
