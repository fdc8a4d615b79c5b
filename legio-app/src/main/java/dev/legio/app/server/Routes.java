package dev.legio.app.server;

import java.util.List;

/**
 * Every route of the API, in one list: a newcomer finds each endpoint here by its path. {@code
 * openapi.json} documents exactly these (checked by {@code OpenApiTest}).
 */
final class Routes {
  static final String PREFIX = "/api/v1";

  private Routes() {}

  static List<Route> all(ServerParts parts, EventHub hub) {
    SessionsEndpoint sessions = new SessionsEndpoint(parts);
    MemoriaEndpoint memoria = new MemoriaEndpoint(parts);
    SessionEditEndpoint edits = new SessionEditEndpoint(parts);
    return List.of(
        new Route("GET", "/healthz", Access.PUBLIC, new HealthEndpoint()),
        new Route("GET", PREFIX + "/openapi.json", Access.OPERATOR, new OpenApiEndpoint()),
        new Route("POST", PREFIX + "/messages", Access.OPERATOR, new MessagesEndpoint(parts, hub)),
        new Route(
            "POST",
            PREFIX + "/channels/{channel}/messages",
            Access.CHANNEL,
            new ChannelMessagesEndpoint(parts)),
        new Route("GET", PREFIX + "/history", Access.OPERATOR, new HistoryEndpoint(parts)),
        new Route("GET", PREFIX + "/usage", Access.OPERATOR, new UsageEndpoint(parts)),
        new Route("GET", PREFIX + "/status", Access.OPERATOR, new StatusEndpoint(parts)),
        new Route("GET", PREFIX + "/sessions", Access.OPERATOR, sessions::list),
        new Route("GET", PREFIX + "/sessions/{id}", Access.OPERATOR, sessions::get),
        new Route("DELETE", PREFIX + "/sessions/{owner}", Access.OPERATOR, sessions::reset),
        new Route("POST", PREFIX + "/sessions/{id}/rewind", Access.OPERATOR, edits::rewind),
        new Route("POST", PREFIX + "/sessions/{id}/fork", Access.OPERATOR, edits::fork),
        new Route("GET", PREFIX + "/events", Access.OPERATOR, new EventsEndpoint(parts, hub)),
        new Route("GET", PREFIX + "/memoria/{kind}", Access.OPERATOR, memoria::list),
        new Route("GET", PREFIX + "/memoria/{kind}/{name}", Access.OPERATOR, memoria::read),
        new Route("POST", PREFIX + "/memoria/{kind}/{name}", Access.OPERATOR, memoria::publish));
  }
}
