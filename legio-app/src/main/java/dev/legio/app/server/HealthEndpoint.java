package dev.legio.app.server;

import java.util.Map;

/** {@code GET /healthz}: answers 200 while the server takes requests; needs no token. */
final class HealthEndpoint implements Endpoint {
  @Override
  public void handle(ApiExchange exchange) throws Exception {
    exchange.json(200, Map.of("status", "ok"));
  }
}
