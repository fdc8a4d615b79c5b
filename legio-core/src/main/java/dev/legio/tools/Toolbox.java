package dev.legio.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Toolset} from a list of definitions. It checks each call's input against the tool's
 * parameters (unknown keys, missing required keys and wrong types are refused with a message naming
 * the parameter) before the handler runs, and turns the handler's refusals into error results.
 */
public final class Toolbox implements Toolset {
  private static final Logger log = LoggerFactory.getLogger(Toolbox.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String caller;
  private final Map<String, ToolDefinition> tools = new LinkedHashMap<>();

  /**
   * @param caller who the tools act for, for the log
   */
  public Toolbox(String caller, List<ToolDefinition> definitions) {
    this.caller = caller;
    for (ToolDefinition d : definitions) {
      if (tools.putIfAbsent(d.name(), d) != null) {
        throw new IllegalArgumentException("two tools named " + d.name());
      }
    }
  }

  public String caller() {
    return caller;
  }

  @Override
  public List<ToolDefinition> tools() {
    return List.copyOf(tools.values());
  }

  @Override
  public ToolResult call(String name, String inputJson) {
    ToolDefinition tool = tools.get(name);
    if (tool == null) {
      return ToolResult.error(
          "no tool named '"
              + name
              + "' for "
              + caller
              + ". Tools: "
              + String.join(", ", tools.keySet()));
    }
    ObjectNode input;
    try {
      input = parse(inputJson);
      check(tool, input);
    } catch (IllegalArgumentException e) {
      return ToolResult.error(name + ": " + e.getMessage());
    }
    try {
      String text = tool.handler().call(new ToolInput(input));
      log.debug("{} called {}", caller, name);
      return ToolResult.ok(text);
    } catch (IllegalArgumentException e) {
      log.info("{} called {}: refused: {}", caller, name, e.getMessage());
      return ToolResult.error(e.getMessage());
    } catch (RuntimeException e) {
      if (e instanceof dev.legio.errors.TryAgainLater) {
        log.info("{} called {}: busy: {}", caller, name, e.getMessage());
        return ToolResult.error(e.getMessage());
      }
      log.error("{} called {}: failed", caller, name, e);
      return ToolResult.error(
          name + " failed: " + e.getMessage() + " (details in Legio's log file)");
    }
  }

  private static ObjectNode parse(String inputJson) {
    if (inputJson == null || inputJson.isBlank()) {
      return JSON.createObjectNode();
    }
    JsonNode node;
    try {
      node = JSON.readTree(inputJson);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the input is not valid JSON: " + e.getOriginalMessage());
    }
    if (node == null || node.isNull()) {
      return JSON.createObjectNode();
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException("the input must be a JSON object");
    }
    return (ObjectNode) node;
  }

  private static void check(ToolDefinition tool, ObjectNode input) {
    Map<String, ToolParameter> params = new LinkedHashMap<>();
    tool.parameters().forEach(p -> params.put(p.name(), p));
    List<String> unknown = new ArrayList<>();
    for (Iterator<String> keys = input.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!params.containsKey(key)) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "unknown parameter '"
              + unknown.get(0)
              + "'; "
              + (params.isEmpty()
                  ? "this tool takes no parameters"
                  : "parameters: " + String.join(", ", params.keySet())));
    }
    for (ToolParameter p : params.values()) {
      JsonNode v = input.get(p.name());
      if (v == null || v.isNull()) {
        if (p.required()) {
          throw new IllegalArgumentException("parameter '" + p.name() + "' is required");
        }
        continue;
      }
      boolean ok =
          switch (p.type()) {
            case STRING -> v.isTextual();
            case INTEGER -> v.isIntegralNumber() && v.canConvertToInt();
            case BOOLEAN -> v.isBoolean();
            case STRING_ARRAY -> v.isArray() && allText(v);
          };
      if (!ok) {
        throw new IllegalArgumentException(
            "parameter '"
                + p.name()
                + "' must be "
                + switch (p.type()) {
                  case STRING -> "a string";
                  case INTEGER -> "an integer";
                  case BOOLEAN -> "true or false";
                  case STRING_ARRAY -> "an array of strings";
                });
      }
      if (p.type() == ToolParameter.Type.INTEGER
          && ((p.minimum() != null && v.asInt() < p.minimum())
              || (p.maximum() != null && v.asInt() > p.maximum()))) {
        throw new IllegalArgumentException(
            "parameter '"
                + p.name()
                + "' must be from "
                + p.minimum()
                + " to "
                + p.maximum()
                + ", got "
                + v.asInt());
      }
    }
  }

  private static boolean allText(JsonNode array) {
    for (JsonNode item : array) {
      if (!item.isTextual()) {
        return false;
      }
    }
    return true;
  }
}
