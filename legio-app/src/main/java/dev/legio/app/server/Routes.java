package dev.legio.app.server;

import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.metrics.LegioMetrics;
import java.util.List;
import java.util.function.Supplier;

/**
 * Every route of the API, in one list: a newcomer finds each endpoint here by its path. {@code
 * openapi.json} documents exactly these (checked by {@code OpenApiTest}).
 */
final class Routes {
  static final String PREFIX = "/api/v1";

  private Routes() {}

  /**
   * @param gateways the chat gateways' health, for {@code GET /api/v1/status}
   * @param metrics what {@code GET /metrics} serves; null: it answers 404
   * @param readiness what {@code GET /readyz} checks
   */
  static List<Route> all(
      ServerParts parts,
      EventHub hub,
      Supplier<List<GatewayHealth>> gateways,
      LegioMetrics metrics,
      Readiness readiness,
      PeerRelay peers) {
    SessionsEndpoint sessions = new SessionsEndpoint(parts);
    MemoriaEndpoint memoria = new MemoriaEndpoint(parts);
    SessionEditEndpoint edits = new SessionEditEndpoint(parts);
    TasksEndpoint tasks = new TasksEndpoint(parts);
    LegatusMemoriaEndpoint legatus = new LegatusMemoriaEndpoint(parts);
    return List.of(
        new Route("GET", "/healthz", Access.PUBLIC, new HealthEndpoint()),
        new Route("GET", "/metrics", Access.METRICS, new MetricsEndpoint(metrics)),
        new Route("GET", "/readyz", Access.PUBLIC, new ReadyEndpoint(readiness)),
        new Route("GET", PREFIX + "/openapi.json", Access.OPERATOR, new OpenApiEndpoint()),
        new Route(
            "POST",
            PREFIX + "/messages",
            Access.OPERATOR,
            peers.preferring(
                new MessagesEndpoint(parts, hub),
                peers.messages(() -> parts.engine().knownAgents()))),
        new Route(
            "POST",
            PREFIX + "/channels/{channel}/messages",
            Access.CHANNEL,
            peers.preferring(new ChannelMessagesEndpoint(parts), peers.channel())),
        new Route(
            "POST", PREFIX + "/tasks", Access.TASK, peers.preferring(tasks::run, peers.task())),
        new Route("GET", PREFIX + "/tasks/sessions", Access.TASK, tasks::sessions),
        new Route("GET", PREFIX + "/history", Access.OPERATOR, new HistoryEndpoint(parts)),
        new Route("GET", PREFIX + "/usage", Access.OPERATOR, new UsageEndpoint(parts)),
        new Route("GET", PREFIX + "/status", Access.OPERATOR, new StatusEndpoint(parts, gateways)),
        new Route(
            "GET",
            PREFIX + "/agents/{name}/memory",
            Access.OPERATOR,
            new AgentMemoryEndpoint(parts)),
        new Route("GET", PREFIX + "/sessions", Access.OPERATOR, sessions::list),
        new Route("GET", PREFIX + "/sessions/{id}", Access.OPERATOR, sessions::get),
        new Route("DELETE", PREFIX + "/sessions/{owner}", Access.OPERATOR, sessions::reset),
        new Route("POST", PREFIX + "/sessions/{id}/rewind", Access.OPERATOR, edits::rewind),
        new Route("POST", PREFIX + "/sessions/{id}/fork", Access.OPERATOR, edits::fork),
        new Route("GET", PREFIX + "/events", Access.OPERATOR, new EventsEndpoint(parts, hub)),
        // The literal paths first: a route matches in this order.
        new Route("GET", PREFIX + "/memoria/search", Access.OPERATOR, legatus::search),
        new Route(
            "GET",
            PREFIX + "/memoria/commentarii/{agent}",
            Access.OPERATOR,
            legatus::listCommentarii),
        new Route(
            "GET",
            PREFIX + "/memoria/commentarii/{agent}/{name}",
            Access.OPERATOR,
            legatus::readCommentarium),
        new Route(
            "POST", PREFIX + "/memoria/edicta/{name}/revoke", Access.OPERATOR, legatus::revoke),
        new Route("GET", PREFIX + "/memoria/{kind}", Access.OPERATOR, memoria::list),
        new Route("GET", PREFIX + "/memoria/{kind}/{name}", Access.OPERATOR, memoria::read),
        new Route("POST", PREFIX + "/memoria/{kind}/{name}", Access.OPERATOR, memoria::publish));
  }
}
