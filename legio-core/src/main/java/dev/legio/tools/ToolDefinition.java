package dev.legio.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A tool, defined once and served over any transport (MCP over stdio or HTTP, or a back-end's own
 * tool-use loop): its name, what it does, its parameters (from which its JSON schema is made) and
 * its handler.
 */
public record ToolDefinition(
    String name, String description, List<ToolParameter> parameters, Handler handler) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Runs a call whose input was already checked against the parameters. */
  @FunctionalInterface
  public interface Handler {
    /**
     * Returns the result text. Throws {@link IllegalArgumentException} (or a subclass) for input
     * the model should correct; the message goes back to it as an error result.
     */
    String call(ToolInput input);
  }

  public ToolDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    parameters = List.copyOf(parameters);
    Objects.requireNonNull(handler, "handler");
  }

  /** The JSON schema of the input: an object with exactly these properties. */
  public ObjectNode inputSchema() {
    ObjectNode schema = JSON.createObjectNode();
    schema.put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    ArrayNode required = JSON.createArrayNode();
    for (ToolParameter p : parameters) {
      ObjectNode prop = properties.putObject(p.name());
      prop.put("type", p.type().json());
      prop.put("description", p.description());
      if (p.type() == ToolParameter.Type.STRING_ARRAY) {
        prop.putObject("items").put("type", "string");
      }
      if (p.minimum() != null) {
        prop.put("minimum", p.minimum());
      }
      if (p.maximum() != null) {
        prop.put("maximum", p.maximum());
      }
      if (p.required()) {
        required.add(p.name());
      }
    }
    if (!required.isEmpty()) {
      schema.set("required", required);
    }
    schema.put("additionalProperties", false);
    return schema;
  }

  /** {@link #inputSchema()} as a JSON string. */
  public String inputSchemaJson() {
    return inputSchema().toString();
  }

  /** {@link #inputSchema()} as plain maps and lists (what the MCP SDK takes). */
  @SuppressWarnings("unchecked")
  public Map<String, Object> inputSchemaMap() {
    return new LinkedHashMap<>(JSON.convertValue(inputSchema(), Map.class));
  }
}
