package dev.legio.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** A tool call's input, already checked against the tool's parameters: typed access. */
public final class ToolInput {
  private final ObjectNode node;

  ToolInput(ObjectNode node) {
    this.node = node;
  }

  /** A required string (its presence was checked). */
  public String string(String name) {
    return node.get(name).asText();
  }

  /** An optional string, or {@code fallback}. */
  public String string(String name, String fallback) {
    JsonNode v = node.get(name);
    return v == null || v.isNull() ? fallback : v.asText();
  }

  public int integer(String name, int fallback) {
    JsonNode v = node.get(name);
    return v == null || v.isNull() ? fallback : v.asInt();
  }

  public boolean bool(String name, boolean fallback) {
    JsonNode v = node.get(name);
    return v == null || v.isNull() ? fallback : v.asBoolean();
  }

  /** An optional list of strings, or {@code fallback}. */
  public List<String> strings(String name, List<String> fallback) {
    JsonNode v = node.get(name);
    if (v == null || v.isNull()) {
      return fallback;
    }
    List<String> out = new ArrayList<>();
    v.forEach(item -> out.add(item.asText()));
    return out;
  }
}
