package dev.legio.tools;

import java.util.Objects;

/**
 * One parameter of a tool: its name, JSON type, description, and whether it must be given.
 *
 * @param minimum for integers, the smallest value accepted (null: none)
 * @param maximum for integers, the largest value accepted (null: none)
 */
public record ToolParameter(
    String name,
    Type type,
    String description,
    boolean required,
    Integer minimum,
    Integer maximum) {

  /** The JSON types Legio's tools use. */
  public enum Type {
    STRING("string"),
    INTEGER("integer"),
    BOOLEAN("boolean"),
    STRING_ARRAY("array");

    private final String json;

    Type(String json) {
      this.json = json;
    }

    public String json() {
      return json;
    }
  }

  public ToolParameter {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(description, "description");
  }

  public static ToolParameter required(String name, Type type, String description) {
    return new ToolParameter(name, type, description, true, null, null);
  }

  public static ToolParameter optional(String name, Type type, String description) {
    return new ToolParameter(name, type, description, false, null, null);
  }

  public ToolParameter between(int min, int max) {
    return new ToolParameter(name, type, description, required, min, max);
  }
}
