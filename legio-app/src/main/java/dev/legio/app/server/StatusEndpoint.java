package dev.legio.app.server;

import dev.legio.session.SessionStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/status}: every agent (legatus first) and every channel with a record, as
 * {@code legio status} shows them, the back-end, and the prompt files that could not be read.
 */
final class StatusEndpoint implements Endpoint {
  private final ServerParts parts;

  StatusEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    List<SessionStatus> all = parts.engine().status();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(
        "agents", all.stream().filter(s -> !s.owner().contains(":")).map(Views::status).toList());
    out.put(
        "channels", all.stream().filter(s -> s.owner().contains(":")).map(Views::status).toList());
    out.put("backend", parts.engine().backend().displayName());
    out.put("problems", parts.agents().problems());
    exchange.json(200, out);
  }
}
