package dev.legio.backend;

import java.util.Objects;

/**
 * A tool a model may call, as the model is told about it.
 *
 * @param name the tool's name, in Legio's vocabulary ({@code memoria_search}, ...)
 * @param description what the tool does, for the model
 * @param inputSchemaJson the JSON schema of the tool's input, an object schema ({@code {"type":
 *     "object", "properties": {...}, "required": [...]}})
 */
public record ToolDefinition(String name, String description, String inputSchemaJson) {
  public ToolDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(inputSchemaJson, "inputSchemaJson");
  }
}
