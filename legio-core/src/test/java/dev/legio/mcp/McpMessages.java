package dev.legio.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Arbitrary client messages for property tests of Legio's MCP transports: raw bytes, any JSON
 * value, and JSON-RPC-shaped objects with every field possibly wrong. Shared by the stdio and the
 * HTTP transport's properties.
 */
public final class McpMessages {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();

  private McpMessages() {}

  /** Any bytes, newlines excluded (a stdio line; an HTTP body). */
  public static Arbitrary<byte[]> bytes() {
    return Arbitraries.bytes()
        .filter(b -> b != '\n' && b != '\r')
        .array(byte[].class)
        .ofMaxSize(200);
  }

  /** Any JSON value, nested up to three levels. */
  public static Arbitrary<JsonNode> json() {
    return json(3);
  }

  private static Arbitrary<JsonNode> json(int depth) {
    if (depth == 0) {
      return scalar();
    }
    Arbitrary<JsonNode> inner = json(depth - 1);
    return Arbitraries.frequencyOf(
        Tuple.of(3, scalar()),
        Tuple.of(1, inner.list().ofMaxSize(3).map(l -> (JsonNode) NODES.arrayNode().addAll(l))),
        Tuple.of(
            2,
            Arbitraries.maps(Arbitraries.of("jsonrpc", "id", "method", "params", "x"), inner)
                .ofMaxSize(4)
                .map(
                    m -> {
                      ObjectNode o = NODES.objectNode();
                      m.forEach(o::set);
                      return (JsonNode) o;
                    })));
  }

  private static Arbitrary<JsonNode> scalar() {
    return Arbitraries.oneOf(
        Arbitraries.just(NODES.nullNode()),
        Arbitraries.of(true, false).map(NODES::booleanNode),
        Arbitraries.integers().map(NODES::numberNode),
        Arbitraries.doubles().map(NODES::numberNode),
        Arbitraries.strings().ofMaxLength(12).map(NODES::textNode));
  }

  /** JSON-RPC-shaped objects: each field right, wrong or absent. */
  public static Arbitrary<JsonNode> jsonRpcLike() {
    Arbitrary<Optional<JsonNode>> version =
        Arbitraries.of("2.0", "2.0", "2.0", "1.0", "")
            .map(NODES::textNode)
            .map(Optional::<JsonNode>of)
            .injectNull(0.1)
            .map(o -> o == null ? Optional.empty() : o);
    Arbitrary<Optional<JsonNode>> id =
        Arbitraries.oneOf(
            Arbitraries.integers()
                .between(1000, 1_000_000)
                .map(i -> Optional.of(NODES.numberNode(i))),
            Arbitraries.strings()
                .alpha()
                .ofMinLength(1)
                .ofMaxLength(8)
                .map(s -> Optional.<JsonNode>of(NODES.textNode("r-" + s))),
            Arbitraries.just(Optional.<JsonNode>empty()),
            json(2).map(Optional::of));
    Arbitrary<Optional<JsonNode>> method =
        Arbitraries.oneOf(
            Arbitraries.of(
                    "ping",
                    "tools/list",
                    "tools/call",
                    "tools/call",
                    "logging/setLevel",
                    "initialize",
                    "resources/list",
                    "notifications/initialized",
                    "nope")
                .map(m -> Optional.<JsonNode>of(NODES.textNode(m))),
            Arbitraries.just(Optional.<JsonNode>empty()),
            scalar().map(Optional::of));
    Arbitrary<Optional<JsonNode>> params =
        Arbitraries.oneOf(
            Arbitraries.just(Optional.<JsonNode>empty()),
            json(2).map(Optional::of),
            callParams().map(Optional::of));
    return Combinators.combine(version, id, method, params)
        .as(
            (v, i, m, p) -> {
              ObjectNode o = NODES.objectNode();
              v.ifPresent(x -> o.set("jsonrpc", x));
              i.ifPresent(x -> o.set("id", x));
              m.ifPresent(x -> o.set("method", x));
              p.ifPresent(x -> o.set("params", x));
              return o;
            });
  }

  private static Arbitrary<JsonNode> callParams() {
    return Combinators.combine(
            Arbitraries.oneOf(
                Arbitraries.of("echo", "greet", "nope", "list_acta").map(NODES::textNode),
                scalar()),
            Arbitraries.oneOf(json(1), Arbitraries.just(JSON.createObjectNode().put("text", "hi"))))
        .as(
            (name, args) -> {
              ObjectNode p = NODES.objectNode();
              p.set("name", name);
              p.set("arguments", args);
              return p;
            });
  }

  /**
   * The id a message must be answered with: a request (an object with {@code "jsonrpc": "2.0"}, a
   * string or integer id and a method) is answered whatever else is wrong with it.
   */
  public static Optional<JsonNode> answerableId(JsonNode message) {
    if (!message.isObject()) {
      return Optional.empty();
    }
    JsonNode id = message.get("id");
    JsonNode method = message.get("method");
    if (id == null || !(id.isTextual() || id.isIntegralNumber())) {
      return Optional.empty();
    }
    if (method == null) {
      return Optional.empty(); // a response (or nonsense): answered only if it is nonsense
    }
    return Optional.of(id);
  }

  /** Text that must never reach a client: signs of a Java stack trace or class name. */
  public static final List<String> LEAKS =
      List.of("Exception", "\tat ", "java.", "jakarta.", "io.modelcontextprotocol", "reactor.");
}
