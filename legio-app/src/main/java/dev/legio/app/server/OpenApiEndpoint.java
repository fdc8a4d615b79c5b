package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /api/v1/openapi.json}: the OpenAPI 3.1 document of the API, kept beside the code as
 * {@code openapi.json}; {@code OpenApiTest} fails when a route is missing from it or it names one
 * that does not exist.
 */
final class OpenApiEndpoint implements Endpoint {
  static final String RESOURCE = "openapi.json";

  private final JsonNode document = load();

  static JsonNode load() {
    try (InputStream in = OpenApiEndpoint.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the OpenAPI document is missing from the jar");
      }
      return Json.MAPPER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    exchange.json(200, document);
  }
}
