package dev.legio.app.server;

import java.util.List;
import java.util.Set;
import org.eclipse.jetty.server.Request;

/**
 * The API's routes that answer JSON only, and the {@code Accept} check made before one runs.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every route under {@code /api/v1} answers {@code application/json} only, but {@code POST
 *       /api/v1/messages} (JSON or a stream of server-sent events) and {@code GET /api/v1/events}
 *       (a stream), which choose with {@link AcceptNegotiation} themselves.
 *   <li>A JSON-only route that a peer node may answer ({@code POST
 *       /api/v1/channels/{channel}/messages}, {@code POST /api/v1/tasks}) is checked here, before
 *       it is relayed, as every other: whichever node runs its turn, it answers JSON (a task's turn
 *       is never streamed: {@link TasksEndpoint} answers one JSON object, and the peer that runs it
 *       is a node answering the same way), so a request that takes no JSON ({@code Accept:
 *       text/event-stream} included) is 406 on the node it came to, and is neither relayed nor run:
 *       no lease is taken, no turn starts, nothing is written.
 *   <li>A request to a JSON-only route whose {@code Accept} does not take JSON ({@code text/html},
 *       {@code application/json;q=0}) is 406 naming {@code application/json}, as {@code /events}
 *       answers one that does not take a stream: after its token is checked, before its body is
 *       read or anything is done. No {@code Accept}, an empty one, {@code *}{@code /*}, {@code
 *       application/*} and {@code application/json;charset=utf-8} take JSON ({@link
 *       AcceptNegotiation}), so curl, browsers' {@code fetch} and the JDK's client are answered as
 *       before.
 *   <li>{@code /healthz}, {@code /readyz} and {@code /metrics} are not checked: a load balancer or
 *       a scraper is answered whatever it sends.
 *   <li>Errors are JSON whatever the {@code Accept}: the 406 is one.
 * </ul>
 */
final class JsonOnlyRoutes {
  /** The routes of the API that choose their answer's type themselves. */
  private static final Set<String> NEGOTIATING =
      Set.of("POST " + Routes.PREFIX + "/messages", "GET " + Routes.PREFIX + "/events");

  private JsonOnlyRoutes() {}

  /** 406 when {@code route} answers JSON only and the request's {@code Accept} does not take it. */
  static void check(Route route, Request request) {
    if (!route.template().startsWith(Routes.PREFIX + "/")
        || NEGOTIATING.contains(route.method() + " " + route.template())) {
      return;
    }
    AcceptNegotiation.choose(
        request.getHeaders().get("Accept"),
        List.of(ApiExchange.JSON),
        route.method() + " " + request.getHttpURI().getPath());
  }
}
