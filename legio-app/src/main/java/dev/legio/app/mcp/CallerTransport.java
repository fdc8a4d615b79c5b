package dev.legio.app.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.mcp.Cancellation;
import dev.legio.mcp.InternalErrors;
import dev.legio.mcp.JsonRpcError;
import dev.legio.mcp.McpToolServer;
import dev.legio.mcp.McpVersions;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * MCP's streamable HTTP transport for one caller's server, in place of the SDK's {@code
 * HttpServletStreamableServerTransportProvider} (mcp-core 2.1.0), which answers errors with a
 * serialised Java exception (stack trace and all), leaves requests it cannot read unanswered with
 * an empty SSE body, never closes the stream of an unknown method
 * (modelcontextprotocol/java-sdk#1050), and sends SSE without event ids, {@code retry:} or
 * resumption. Messages reach it already checked by {@link McpEndpoint}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@code initialize} opens a session; its answer carries {@code Mcp-Session-Id}. Every other
 *       message names a session: a missing id gets 400, an unknown or ended one 404 with JSON-RPC
 *       code {@link JsonRpcError#SESSION_NOT_FOUND} (-32001), on which clients initialize again and
 *       send the request once more (the Claude Code CLI does so for a tool call only on that code).
 *   <li>{@code tools/call} is answered on an SSE stream ({@link SseStream}: event ids, {@code
 *       retry:}, resumable with {@code Last-Event-ID}), since a tool such as {@code dispatch} may
 *       run for minutes; every other request is answered at once with one JSON body.
 *   <li>Notifications and responses get 202 and no body. {@code notifications/cancelled} ({@link
 *       Cancellation}) names a {@code tools/call} still running in the session: it is not run, or
 *       is interrupted, and its stream ends without an answer. Every other request is answered at
 *       once, so there is nothing else to cancel. A {@code tools/call} reusing the id of one still
 *       running gets 400 with {@code -32600}.
 *   <li>Every request with an id is answered: if the SDK finishes without an answer, or fails,
 *       Legio answers {@code -32603} naming the method (details in the log only).
 *   <li>{@code GET} opens (or, with {@code Last-Event-ID}, resumes) a stream; {@code DELETE} ends
 *       the session, cancelling its tool calls still running as {@code notifications/cancelled}
 *       would. Sessions their clients left without a {@code DELETE} are ended by {@link
 *       SessionRetention}.
 * </ul>
 */
final class CallerTransport implements McpStreamableServerTransportProvider {
  private static final Logger log = LoggerFactory.getLogger(CallerTransport.class);
  private static final Duration ANSWER_TIMEOUT = Duration.ofMinutes(30);

  private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
  private final SessionRetention retention;
  private final LongSupplier nanoTime;
  private volatile McpStreamableServerSession.Factory factory;

  CallerTransport() {
    this(SessionRetention.defaults(), System::nanoTime);
  }

  /**
   * @param retention which sessions left idle are ended
   * @param nanoTime the clock of the sessions' idle times ({@link System#nanoTime()})
   */
  CallerTransport(SessionRetention retention, LongSupplier nanoTime) {
    this.retention = retention;
    this.nanoTime = nanoTime;
  }

  @Override
  public void setSessionFactory(McpStreamableServerSession.Factory factory) {
    this.factory = factory;
  }

  @Override
  public List<String> protocolVersions() {
    return McpVersions.SUPPORTED;
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return Mono.fromRunnable(
        () ->
            sessions
                .values()
                .forEach(
                    s ->
                        s.sdk()
                            .sendNotification(method, params)
                            .onErrorResume(e -> Mono.empty())
                            .block(Duration.ofSeconds(5))));
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(
        () -> {
          sessions.values().forEach(HttpSession::close);
          sessions.clear();
        });
  }

  /** A checked JSON-RPC message from a POST. */
  void post(McpSchema.JSONRPCMessage message, String sessionId, HttpServletResponse response)
      throws IOException {
    if (message instanceof McpSchema.JSONRPCRequest request
        && request.method().equals(McpSchema.METHOD_INITIALIZE)) {
      initialize(request, response);
      return;
    }
    Optional<HttpSession> found = session(sessionId, idOf(message), response);
    if (found.isEmpty()) {
      return;
    }
    HttpSession session = found.get();
    try {
      answer(message, session, response);
    } finally {
      session.leave(nanoTime.getAsLong());
    }
  }

  private void answer(
      McpSchema.JSONRPCMessage message, HttpSession session, HttpServletResponse response)
      throws IOException {
    switch (message) {
      case McpSchema.JSONRPCNotification n when Cancellation.is(n) -> {
        // never to the SDK's session, which logs a notification it has no handler for
        cancel(session, n);
        response.setStatus(HttpServletResponse.SC_ACCEPTED);
      }
      case McpSchema.JSONRPCNotification n -> {
        session.sdk().accept(n).onErrorResume(e -> Mono.empty()).block(ANSWER_TIMEOUT);
        response.setStatus(HttpServletResponse.SC_ACCEPTED);
      }
      case McpSchema.JSONRPCResponse r -> {
        session.sdk().accept(r).onErrorResume(e -> Mono.empty()).block(ANSWER_TIMEOUT);
        response.setStatus(HttpServletResponse.SC_ACCEPTED);
      }
      case McpSchema.JSONRPCRequest request -> {
        if (request.method().equals(McpSchema.METHOD_TOOLS_CALL)) {
          answerOnStream(session, request, response);
        } else {
          answerWithJson(session, request, response);
        }
      }
      default ->
          HttpAnswers.error(
              response, 400, JsonRpcError.INVALID_REQUEST, "invalid request: unknown message");
    }
  }

  private void initialize(McpSchema.JSONRPCRequest request, HttpServletResponse response)
      throws IOException {
    JsonNode id = McpToolServer.JSON_MAPPER.convertValue(request.id(), JsonNode.class);
    McpSchema.InitializeRequest params;
    try {
      params =
          McpToolServer.JSON_MAPPER.convertValue(
              request.params(), McpSchema.InitializeRequest.class);
    } catch (RuntimeException e) {
      params = null;
    }
    if (params == null || params.protocolVersion() == null) {
      HttpAnswers.json(
          response,
          200,
          new JsonRpcError(
                  id,
                  JsonRpcError.INVALID_PARAMS,
                  "initialize needs \"params\" with \"protocolVersion\", \"capabilities\" and"
                      + " \"clientInfo\"")
              .toJsonText());
      return;
    }
    McpStreamableServerSession.McpStreamableServerSessionInit init = factory.startSession(params);
    McpSchema.InitializeResult result;
    try {
      result = init.initResult().block(ANSWER_TIMEOUT);
    } catch (RuntimeException e) {
      log.warn("MCP initialize failed", e);
      HttpAnswers.json(response, 200, internalError(id, request.method()).toJsonText());
      return;
    }
    String opened = init.session().getId();
    sessions.put(opened, new HttpSession(init.session(), nanoTime.getAsLong()));
    for (String ended : retention.toEnd(sessions, opened, nanoTime.getAsLong())) {
      HttpSession left = sessions.get(ended);
      if (left != null && left.closeIfIdle()) {
        sessions.remove(ended, left);
        log.debug("MCP over HTTP: ended session {}, left idle", ended);
      }
    }
    response.setHeader("Mcp-Session-Id", init.session().getId());
    HttpAnswers.json(
        response,
        200,
        McpToolServer.JSON_MAPPER.writeValueAsString(
            McpSchema.JSONRPCResponse.result(request.id(), result)));
  }

  private void answerWithJson(
      HttpSession session, McpSchema.JSONRPCRequest request, HttpServletResponse response)
      throws IOException {
    JsonAnswer answer = new JsonAnswer(request.id(), request.method());
    try {
      session.sdk().responseStream(request, answer).block(ANSWER_TIMEOUT);
    } catch (RuntimeException e) {
      log.warn("MCP request {} failed", request.method(), e);
    }
    McpSchema.JSONRPCResponse r = answer.answer();
    HttpAnswers.json(
        response,
        200,
        r != null
            ? McpToolServer.JSON_MAPPER.writeValueAsString(r)
            : internalError(idNode(request.id()), request.method()).toJsonText());
  }

  private void answerOnStream(
      HttpSession session, McpSchema.JSONRPCRequest request, HttpServletResponse response)
      throws IOException {
    Optional<HttpSession.Call> started = session.newCall(request.id(), request.method());
    if (started.isEmpty()) {
      HttpAnswers.error(
          response,
          400,
          new JsonRpcError(
              idNode(request.id()),
              JsonRpcError.INVALID_REQUEST,
              "id "
                  + idNode(request.id())
                  + " is already used by a request still running; give each request its own"
                  + " id"));
      return;
    }
    HttpSession.Call call = started.get();
    SseStream stream = call.stream();
    startEvents(response, session);
    session
        .sdk()
        .responseStream(request, stream)
        .contextWrite(call.running().context())
        .doOnError(e -> log.warn("MCP request {} failed", request.method(), e))
        .onErrorResume(e -> Mono.empty())
        .doFinally(
            signal -> {
              session.callEnded(request.id(), call);
              if (!stream.answered() && !call.running().cancelled()) {
                stream.append(
                    McpSchema.JSONRPCResponse.error(
                        request.id(),
                        new McpSchema.JSONRPCResponse.JSONRPCError(
                            JsonRpcError.INTERNAL_ERROR,
                            internalError(idNode(request.id()), request.method()).message())));
              }
              stream.finish();
            })
        .subscribe();
    stream.carry(response.getOutputStream(), 0);
  }

  /** A client's {@code notifications/cancelled}: the tool call it names ends unanswered. */
  private static void cancel(HttpSession session, McpSchema.JSONRPCNotification notification) {
    Optional<Cancellation> asked = Cancellation.of(notification);
    if (asked.isEmpty()) {
      log.debug("MCP: a notifications/cancelled naming no request id was ignored");
    } else if (session.cancel(asked.get().key())) {
      log.debug("MCP: the client cancelled {}", asked.get().describe());
    } else {
      log.debug("MCP: cancelling {} changed nothing: no such call running", asked.get().describe());
    }
  }

  /** A GET: the session's stream, or with {@code Last-Event-ID} the rest of a stream. */
  void get(String sessionId, String lastEventId, HttpServletResponse response) throws IOException {
    Optional<HttpSession> found = session(sessionId, null, response);
    if (found.isEmpty()) {
      return;
    }
    HttpSession session = found.get();
    try {
      carry(session, lastEventId, response);
    } finally {
      session.leave(nanoTime.getAsLong());
    }
  }

  private void carry(HttpSession session, String lastEventId, HttpServletResponse response)
      throws IOException {
    if (lastEventId == null || lastEventId.isBlank()) {
      SseStream stream = session.listening();
      startEvents(response, session);
      stream.carry(response.getOutputStream(), Long.MAX_VALUE);
      return;
    }
    String[] parts = lastEventId.strip().split("\\.", 2);
    Optional<SseStream> stream = Optional.empty();
    long after = -1;
    if (parts.length == 2) {
      try {
        after = Long.parseLong(parts[1]);
        stream = session.stream(parts[0]);
      } catch (NumberFormatException e) {
        stream = Optional.empty();
      }
    }
    if (stream.isEmpty() || after < 0) {
      HttpAnswers.error(
          response,
          404,
          JsonRpcError.SERVER_ERROR,
          "unknown Last-Event-ID '"
              + lastEventId.strip()
              + "': this session keeps at most its last "
              + HttpSession.KEPT_STREAMS
              + " streams not sent in full; open a new stream with a GET without"
              + " Last-Event-ID");
      return;
    }
    if (!stream.get().replays(after)) {
      HttpAnswers.error(
          response,
          404,
          JsonRpcError.SERVER_ERROR,
          "the events of stream '"
              + parts[0]
              + "' after "
              + after
              + " were sent in full and are no longer kept; send the request again if its"
              + " answer did not arrive");
      return;
    }
    startEvents(response, session);
    stream.get().carry(response.getOutputStream(), after);
  }

  /** A DELETE: the session ends. */
  void delete(String sessionId, HttpServletResponse response) throws IOException {
    Optional<HttpSession> found = session(sessionId, null, response);
    if (found.isEmpty()) {
      return;
    }
    sessions.remove(sessionId);
    found.get().leave(nanoTime.getAsLong());
    found.get().close();
    response.setStatus(HttpServletResponse.SC_NO_CONTENT);
  }

  /**
   * The session a request names, entered (the caller leaves it when the request ends); empty, with
   * the error answered, when there is none.
   */
  private Optional<HttpSession> session(
      String sessionId, JsonNode answerId, HttpServletResponse response) throws IOException {
    if (sessionId == null || sessionId.isBlank()) {
      HttpAnswers.error(
          response,
          400,
          new JsonRpcError(
              answerId,
              JsonRpcError.SERVER_ERROR,
              "missing Mcp-Session-Id header: send initialize first and then the session id"
                  + " it returns with every request"));
      return Optional.empty();
    }
    HttpSession session = sessions.get(sessionId.strip());
    if (session == null || !session.enter()) {
      HttpAnswers.error(
          response,
          404,
          new JsonRpcError(
              answerId,
              JsonRpcError.SESSION_NOT_FOUND,
              "unknown MCP session (it ended, or the server restarted): send initialize again"));
      return Optional.empty();
    }
    return Optional.of(session);
  }

  private static void startEvents(HttpServletResponse response, HttpSession session)
      throws IOException {
    response.setStatus(200);
    response.setContentType("text/event-stream");
    response.setCharacterEncoding("UTF-8");
    response.setHeader("Cache-Control", "no-cache");
    response.setHeader("Mcp-Session-Id", session.sdk().getId());
    response.flushBuffer();
  }

  private static JsonNode idOf(McpSchema.JSONRPCMessage message) {
    return message instanceof McpSchema.JSONRPCRequest r ? idNode(r.id()) : null;
  }

  private static JsonNode idNode(Object id) {
    return McpToolServer.JSON_MAPPER.convertValue(id, JsonNode.class);
  }

  private static JsonRpcError internalError(JsonNode id, String method) {
    return new JsonRpcError(id, JsonRpcError.INTERNAL_ERROR, InternalErrors.messageFor(method));
  }
}
