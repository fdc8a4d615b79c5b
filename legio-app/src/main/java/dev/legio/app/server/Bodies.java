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

  /** An optional string field: null when absent; any other type is a 400 naming it. */
  static String optionalString(JsonNode body, String field, String path) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual()) {
      throw ApiException.badRequest(
          "field '" + path + "' must be a string, got " + node.getNodeType().name().toLowerCase());
    }
    return node.asText();
  }

  /**
   * An optional id field (a platform's user id): a string, or a whole number as platforms that
   * number their users send it ({@code 42} reads as {@code "42"}); null when absent. A fraction, an
   * exponent or any other type is a 400 naming it.
   */
  static String optionalId(JsonNode body, String field, String path) {
    JsonNode node = body.get(field);
    if (node != null && node.isIntegralNumber()) {
      return node.bigIntegerValue().toString();
    }
    if (node != null && node.isNumber()) {
      throw ApiException.badRequest(
          "field '" + path + "' must be a string or a whole number, got " + node.asText());
    }
    return optionalString(body, field, path);
  }

  /** An optional whole-number field of at least {@code min}: {@code fallback} when absent. */
  static int optionalInt(JsonNode body, String field, int min, int fallback, String meaning) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return fallback;
    }
    if (!node.isIntegralNumber() || !node.canConvertToInt() || node.asInt() < min) {
      throw ApiException.badRequest(
          "field '" + field + "' must be " + meaning + ", a whole number of " + min + " or more");
    }
    return node.asInt();
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
