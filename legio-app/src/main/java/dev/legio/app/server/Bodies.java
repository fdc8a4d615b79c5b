package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads the fields of a request's JSON body; a missing or wrong-typed field is a 400 naming it. */
final class Bodies {
  private Bodies() {}

  /** A string field that must be present and not blank. */
  static String text(JsonNode body, String field) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      throw ApiException.badRequest("field '" + field + "' is missing: send it as a string");
    }
    if (!node.isTextual()) {
      throw ApiException.badRequest(
          "field '" + field + "' must be a string, got " + node.getNodeType().name().toLowerCase());
    }
    if (node.asText().isBlank()) {
      throw ApiException.badRequest("field '" + field + "' is empty: write something to send");
    }
    return node.asText();
  }

  /** An optional string field: null when absent. */
  static String optionalString(JsonNode body, String field, String path) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual() && !node.isNumber()) {
      throw ApiException.badRequest(
          "field '" + path + "' must be a string, got " + node.getNodeType().name().toLowerCase());
    }
    return node.asText();
  }

  /** An optional object field: null when absent. */
  static JsonNode optionalObject(JsonNode body, String field) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw ApiException.badRequest(
          "field '"
              + field
              + "' must be an object such as {\"id\": \"42\", \"name\": \"Ada\"}, got "
              + node.getNodeType().name().toLowerCase());
    }
    return node;
  }
}
