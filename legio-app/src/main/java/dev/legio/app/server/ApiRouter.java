package dev.legio.app.server;

import dev.legio.app.http.BearerHeader;
import dev.legio.app.http.StalledTransfer;
import dev.legio.app.http.UnreadBody;
import dev.legio.errors.ExplainedFailure;
import dev.legio.errors.FailureText;
import dev.legio.errors.Quoted;
import dev.legio.log.InvalidMessageException;
import dev.legio.secrets.SecretRedactor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a request's route, checks its token and role, runs the endpoint and turns what it throws
 * into a JSON error.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every route but a {@link Access#PUBLIC} one needs {@code Authorization: Bearer TOKEN}: a
 *       missing or unknown token gets 401 (a header of another shape too), two {@code
 *       Authorization} headers 400 ({@link BearerHeader}: read in one pass over the headers), a
 *       token whose role may not use the route 403.
 *   <li>A path holding a path parameter ({@code ;x}) gets 400 ({@link PathParameterRefusal}).
 *   <li>An unknown path gets 404; a known path with another method 405 (with {@code Allow}). A
 *       {@code HEAD} is its {@code GET} without the body, with the same access rules, but for a
 *       stream ({@link Endpoint#streams}), which gets 405.
 *   <li>While the server shuts down (drains) every new request gets 503, but for the public ones
 *       ({@code /healthz}, {@code /readyz}): a load balancer keeps hearing that the node is up and
 *       not ready.
 *   <li>A request refused before its caller is known (503, 404, 405, 401, 403) has its body left
 *       unread ({@link UnreadBody}): a client that announces a body and never sends it holds no
 *       thread.
 *   <li>A body that has not arrived whole when the request is routed is read on a virtual thread
 *       ({@link ArrivedBody}): slow clients never hold the API's threads. When the server starts to
 *       drain, a request still waiting for its body is ended at once ({@link AwaitedBodies}).
 *   <li>An error body is {@code {"error": "<what to fix>"}}; an unexpected failure is logged (the
 *       request's path only, never its headers) and answered 500 without details.
 *   <li>Every error body passes {@link SecretRedactor}, as the log does: a back-end's failure that
 *       an answer repeats (a task's 502) masks what the log masks, and no more shows.
 * </ul>
 */
final class ApiRouter extends Handler.Abstract {
  private static final Logger log = LoggerFactory.getLogger(ApiRouter.class);

  private final List<Route> routes;
  private final ApiTokens tokens;
  private final long maxBodyBytes;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AwaitedBodies awaitedBodies = new AwaitedBodies();
  private volatile boolean closing;
  private HandOff handOff;

  ApiRouter(List<Route> routes, ApiTokens tokens, long maxBodyBytes) {
    this.routes = routes;
    this.tokens = tokens;
    this.maxBodyBytes = maxBodyBytes;
  }

  List<Route> routes() {
    return routes;
  }

  /**
   * From now on every new request gets 503, and so does every request still waiting for its body
   * ({@link AwaitedBodies}).
   */
  void refuseNewRequests() {
    closing = true;
    awaitedBodies.endAll(this::endWhileAwaited);
  }

  /** Answers a request the drain ends while its body is on its way: 503, the connection closed. */
  private void endWhileAwaited(ApiExchange exchange) {
    exchange.response().getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    fail(
        null,
        exchange.response(),
        exchange.callback(),
        503,
        "Legio is shutting down; send the request again when it is back",
        Map.of());
    over(exchange);
  }

  /** Counts {@code exchange} out of the requests in flight, once. */
  private void over(ApiExchange exchange) {
    if (exchange.over()) {
      inFlight.decrementAndGet();
    }
  }

  /** Requests being answered now. */
  int inFlight() {
    return inFlight.get();
  }

  /** The hand-off of engine calls and long waits; set once the API's thread pool exists. */
  void handOff(HandOff handOff) {
    this.handOff = handOff;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    long start = System.nanoTime();
    inFlight.incrementAndGet();
    String path = request.getHttpURI().getDecodedPath();
    String method = request.getMethod();
    List<String> segments = Route.segments(path);
    Route route;
    ApiExchange exchange;
    ArrivedBody body;
    try {
      PathParameterRefusal.check(request.getHttpURI());
      route = route(path, segments, method, response);
      Caller caller = authorise(request, route);
      JsonOnlyRoutes.check(route, request);
      body = ArrivedBody.of(request);
      exchange =
          new ApiExchange(
              body,
              response,
              callback,
              route.match(segments),
              caller,
              maxBodyBytes,
              start,
              handOff,
              tokens);
    } catch (ApiException e) {
      // Refused before the caller is known: its body is never waited for (UnreadBody).
      UnreadBody.dropOrClose(request, response);
      fail(null, response, callback, e.status(), e.getMessage(), e.extra());
      inFlight.decrementAndGet();
      return true;
    }
    if (body.whole()) {
      respond(exchange, () -> route.endpoint().handle(exchange));
      return true;
    }
    exchange.awaitedBy(awaitedBodies);
    if (closing) {
      awaitedBodies.endAll(this::endWhileAwaited); // the drain began while it was routed
    }
    if (body.nothingArrived()) {
      // Sent after its headers: looked at again once its first bytes are here (no thread waits).
      body.demand(
          () -> {
            body.lookAgain();
            handle(exchange, route, body);
          });
    } else {
      handle(exchange, route, body);
    }
    return true;
  }

  /** Handles {@code exchange} here when its body has arrived whole, else on a virtual thread. */
  private void handle(ApiExchange exchange, Route route, ArrivedBody body) {
    if (body.whole()) {
      respond(exchange, () -> route.endpoint().handle(exchange));
    } else {
      // A body still on its way may take up to 60 s to arrive: it is waited for on a virtual
      // thread, never on one of the API's (ArrivedBody).
      respond(exchange, () -> exchange.onVirtualThread(() -> route.endpoint().handle(exchange)));
    }
  }

  /**
   * Runs one step of answering {@code exchange}, turning what it throws into a JSON error. The
   * exchange is over (no longer in flight) after the first step that hands nothing on.
   */
  void respond(ApiExchange exchange, HandOff.Step step) {
    int handOffs = exchange.handOffs();
    try {
      step.run();
    } catch (Exception e) {
      if (AwaitedBodies.ended(exchange)) {
        return; // answered by the drain while its body was on its way: nothing more to say
      }
      drain(exchange.request(), exchange);
      if (!awaitedBodies.arrived(exchange)) {
        return; // the drain ended it while what was left of its body was read
      }
      ApiException refusal =
          switch (e) {
            case ApiException api -> api;
            case InvalidMessageException invalid -> ApiException.badRequest(invalid.getMessage());
            // The client broke off its request or sent a malformed one (Jetty's refusals): its
            // doing, not the server's, so a quiet line, never a stack trace per request.
            case EofException eof -> {
              log.debug("{}: the client broke off its request ({})", described(exchange), eof);
              yield ApiException.badRequest(
                  exchange.request().getLength() >= 0
                      ? "the connection closed before the whole body arrived (its Content-Length"
                          + " promised more); send the whole body"
                      // No Content-Length: a chunked body that broke off or whose chunks are
                      // malformed (a size that is not hexadecimal), which Jetty reports alike.
                      : "the chunked body could not be read whole (a chunk size that is not"
                          + " hexadecimal, or the connection closed before the last chunk);"
                          + " send the body with a Content-Length, or well-formed chunks");
            }
            case HttpException http when http.getCode() >= 400 && http.getCode() < 500 -> {
              log.debug("{}: a malformed request ({})", described(exchange), e.toString());
              yield new ApiException(
                  http.getCode(), "the request is malformed (" + Quoted.of(e.getMessage()) + ")");
            }
            // A file or store of the server's that is damaged or cannot be reached (a memoria
            // entry that is not XML, a transcript that cannot be read): the server's problem, so
            // 500, but with its one line naming the file and what to do, not "internal error".
            case ExplainedFailure explained -> {
              log.error("{} failed", described(exchange), e);
              yield new ApiException(500, FailureText.of(e));
            }
            default -> {
              log.error("{} failed", described(exchange), e);
              yield new ApiException(500, "internal error; see Legio's log file");
            }
          };
      fail(
          exchange,
          exchange.response(),
          exchange.callback(),
          refusal.status(),
          refusal.getMessage(),
          refusal.extra());
    } finally {
      if (exchange.handOffs() == handOffs) {
        over(exchange);
      }
    }
  }

  /** The method and path of the exchange's request, as a log line names it. */
  private static String described(ApiExchange exchange) {
    return exchange.request().getMethod()
        + " "
        + Quoted.of(exchange.request().getHttpURI().getDecodedPath());
  }

  /** The route of a request: 503 while closing, 404 for an unknown path, 405 for another method. */
  private Route route(String path, List<String> segments, String method, Response response) {
    Route route = null;
    TreeSet<String> allowed = new TreeSet<>();
    for (Route r : routes) {
      if (r.match(segments) != null) {
        allowed.add(r.method());
        // HEAD is GET without the body (Jetty leaves it out), but for a stream (RFC 9110 9.3.2).
        boolean headOfGet =
            method.equals("HEAD") && r.method().equals("GET") && !r.endpoint().streams();
        if ((r.method().equals(method) || headOfGet) && route == null) {
          route = r;
        }
      }
    }
    if (closing && (route == null || route.access() != Access.PUBLIC)) {
      throw new ApiException(503, "Legio is shutting down; try again when it is back");
    }
    if (route == null) {
      if (allowed.isEmpty()) {
        throw ApiException.notFound(
            "no such endpoint: " + Quoted.of(path) + " (GET /api/v1/openapi.json lists them)");
      }
      response.getHeaders().put(HttpHeader.ALLOW, String.join(", ", allowed));
      throw new ApiException(
          405, method + " is not allowed on this path; use " + String.join(" or ", allowed));
    }
    return route;
  }

  /**
   * Reads and drops what is left of the body of a request refused after its token was checked (at
   * most {@link ApiExchange#DRAIN_LIMIT}), so that its connection stays usable: a server that
   * answers before the body has arrived and then closes would leave the client sending its next
   * request on a connection that is gone. Not for an answer already begun (a stream).
   */
  private static void drain(Request request, ApiExchange exchange) {
    if (exchange.answered()) {
      return;
    }
    try (java.io.InputStream in =
        StalledTransfer.withDeadline(Content.Source.asInputStream(request), request)) {
      long left = ApiExchange.DRAIN_LIMIT;
      byte[] sink = new byte[64 * 1024];
      int n;
      while (left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) >= 0) {
        left -= n;
      }
    } catch (java.io.IOException | RuntimeException e) {
      // the client went away or sent a broken body: the answer is all that is left to try
    }
  }

  private Caller authorise(Request request, Route route) {
    if (route.access() == Access.PUBLIC) {
      return null;
    }
    Optional<Caller> caller;
    switch (BearerHeader.of(request.getHeaders())) {
      case BearerHeader.Refusal.REPEATED ->
          throw ApiException.badRequest(BearerHeader.Refusal.REPEATED.advice());
      case BearerHeader.Refusal.NOT_BEARER ->
          // The token may be right: only the scheme is wrong, so no word of making one.
          throw new ApiException(401, BearerHeader.Refusal.NOT_BEARER.advice());
      case BearerHeader.Refusal refusal ->
          throw new ApiException(
              401,
              refusal.advice() + " (make a token with `legio token create NAME --role operator`)");
      case BearerHeader.Token(String token) -> {
        try {
          caller = tokens.callerOf(token);
        } catch (TokenFileException e) {
          // The operator's to repair; a caller learns only that no token can be checked for now.
          log.error("no request can be authorised: {}", e.getMessage());
          throw new ApiException(
              503,
              "the server cannot check tokens now (its token file is damaged); try again later");
        }
      }
    }
    if (caller.isEmpty()) {
      throw new ApiException(
          401, "unknown token: it was revoked or never made (`legio token list` shows the tokens)");
    }
    Role role = caller.get().role();
    boolean allowed =
        switch (route.access()) {
          case PUBLIC -> true;
          case OPERATOR -> role == Role.OPERATOR;
          case CHANNEL -> role == Role.OPERATOR || role == Role.GATEWAY;
          case METRICS -> role == Role.OPERATOR || role == Role.METRICS;
          case TASK -> role == Role.OPERATOR || role == Role.TASK;
        };
    if (!allowed) {
      throw ApiException.forbidden(
          "token '"
              + caller.get().token()
              + "' has role "
              + role.label()
              + ", which may not use "
              + route.method()
              + " "
              + route.template()
              + (role == Role.GATEWAY
                  ? "; a gateway may only post to /api/v1/channels/{source}:{id}/messages"
                  : role == Role.TASK
                      ? "; a task token may only use /api/v1/tasks and /api/v1/tasks/sessions"
                      : role == Role.METRICS ? "; a metrics token may only use GET /metrics" : ""));
    }
    return caller.get();
  }

  private static void fail(
      ApiExchange exchange,
      Response response,
      Callback callback,
      int status,
      String error,
      Map<String, Object> extra) {
    if (exchange != null && exchange.answered()) {
      // The answer had begun (a stream): nothing more can be said in its status.
      callback.failed(new IllegalStateException(error));
      return;
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", SecretRedactor.redact(error));
    body.putAll(extra);
    byte[] bytes;
    try {
      bytes = Json.MAPPER.writeValueAsBytes(body);
    } catch (Exception e) {
      bytes = "{\"error\":\"internal error\"}".getBytes(StandardCharsets.UTF_8);
    }
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    if (status == 401) {
      response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"legio\"");
    }
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }
}
