package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.http.StalledTransfer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One request and its response, as an endpoint sees them: path and query parameters, the caller,
 * the JSON body (size, media type and syntax checked), and ways to answer with JSON or a stream of
 * server-sent events.
 */
final class ApiExchange {
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final Map<String, String> pathParams;
  private final Caller caller;
  private final long maxBodyBytes;
  private final long startNanos;
  private final HandOff handOff;
  private final ApiTokens tokens;
  private final AtomicInteger handOffs = new AtomicInteger();
  private final AtomicReference<AwaitedBodies.Wait> bodyWait =
      new AtomicReference<>(AwaitedBodies.Wait.ARRIVED);
  private final AtomicBoolean over = new AtomicBoolean();
  private volatile AwaitedBodies awaitedBy;
  private QueryParameters query;
  private volatile boolean answered;
  private JsonNode body;
  private volatile long engineNanos = -1;

  ApiExchange(
      Request request,
      Response response,
      Callback callback,
      Map<String, String> pathParams,
      Caller caller,
      long maxBodyBytes,
      long startNanos,
      HandOff handOff,
      ApiTokens tokens) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.pathParams = pathParams;
    this.caller = caller;
    this.maxBodyBytes = maxBodyBytes;
    this.startNanos = startNanos;
    this.handOff = handOff;
    this.tokens = tokens;
  }

  /**
   * A watch on this request's token for a stream that outlives the request ({@link
   * StreamTokenWatch}).
   */
  StreamTokenWatch tokenWatch() {
    return new StreamTokenWatch(tokens, caller);
  }

  /**
   * Runs {@code call} (a call into the engine) on a virtual thread, then {@code answer} with its
   * result on the same thread; what either throws is answered as an error. See {@link HandOff}.
   */
  <T> void afterEngine(Callable<T> call, HandOff.Answer<T> answer) {
    goOn();
    handOffs.incrementAndGet();
    handOff.afterEngine(this, call, answer);
  }

  /** Continues this exchange on a virtual thread: for what may wait long (a stream, a relay). */
  void onVirtualThread(HandOff.Step step) {
    handOffs.incrementAndGet();
    handOff.onVirtualThread(this, step);
  }

  /** Where the body is, for the drain ({@link AwaitedBodies}). */
  AtomicReference<AwaitedBodies.Wait> bodyWait() {
    return bodyWait;
  }

  /** The body of this exchange is on its way; {@code bodies} may end it until it arrives. */
  void awaitedBy(AwaitedBodies bodies) {
    awaitedBy = bodies;
    bodies.add(this);
  }

  /**
   * Before the exchange reads past its body, dispatches or answers: throws {@link
   * AwaitedBodies.Ended} when the drain ended it while its body was on its way.
   */
  private void goOn() {
    AwaitedBodies bodies = awaitedBy;
    if (bodies != null && !bodies.arrived(this)) {
      throw new AwaitedBodies.Ended();
    }
  }

  /** True the first time only: the exchange is over (no longer counted in flight). */
  boolean over() {
    return over.compareAndSet(false, true);
  }

  /** How often this exchange was handed on: a step that leaves it unchanged was the last. */
  int handOffs() {
    return handOffs.get();
  }

  /** Records the engine's time for this exchange ({@code Server-Timing: engine}). */
  void engineTook(long nanos) {
    engineNanos = nanos;
  }

  Request request() {
    return request;
  }

  Response response() {
    return response;
  }

  Callback callback() {
    return callback;
  }

  /** Who calls; null on a public route. */
  Caller caller() {
    return caller;
  }

  String pathParam(String name) {
    return pathParams.get(name);
  }

  String header(String name) {
    return request.getHeaders().get(name);
  }

  /** How many times the request carries header {@code name}. */
  int headerCount(String name) {
    return request.getHeaders().getValuesList(name).size();
  }

  /**
   * A query parameter, or null when absent; 400 when it is given twice or empty ({@link
   * QueryParameters}), the refusal of an empty one saying {@code whatToSend}.
   */
  String query(String name, String whatToSend) {
    return queryParameters().single(name, whatToSend);
  }

  /**
   * A whole-number query parameter within [min, max], or the fallback when absent ({@link
   * QueryParameters}).
   */
  long queryLong(String name, long fallback, long min, long max) {
    return queryParameters().wholeNumber(name, fallback, min, max);
  }

  private QueryParameters queryParameters() {
    if (query == null) {
      query = QueryParameters.of(request);
    }
    return query;
  }

  /** The media type of a stream of server-sent events. */
  static final String EVENT_STREAM = "text/event-stream";

  /** The media type of a JSON answer. */
  static final String JSON = "application/json";

  /**
   * Which of {@code offered} (the default first) to answer with, as the Accept header takes them:
   * 406 naming them when it takes none ({@link AcceptNegotiation}).
   */
  String answerType(String... offered) {
    return AcceptNegotiation.choose(
        header("Accept"),
        List.of(offered),
        request.getMethod() + " " + request.getHttpURI().getPath());
  }

  /**
   * The request's body as a JSON object: 415 unless it is {@code application/json}, 413 when it is
   * over {@code [server] max_body_bytes}, 400 when it is not a JSON object.
   */
  JsonNode jsonBody() throws IOException {
    if (body == null) {
      body = readJsonBody();
    }
    return body;
  }

  private JsonNode readJsonBody() throws IOException {
    JsonBody.requireJsonType(request.getHeaders().getValuesList(HttpHeader.CONTENT_TYPE));
    List<String> encodings = request.getHeaders().getValuesList(HttpHeader.CONTENT_ENCODING);
    if (!encodings.isEmpty()) {
      responseHeader("Accept-Encoding", "identity"); // what a 415 for a coding names (RFC 7694)
    }
    JsonBody.requireNoContentEncoding(encodings);
    byte[] body;
    try {
      body = readBody();
    } catch (IOException e) {
      if (StalledTransfer.isStall(e)) {
        throw new ApiException(408, StalledTransfer.bodyStopped(e));
      }
      throw e;
    }
    return JsonBody.parse(body);
  }

  /**
   * The body's bytes: 413 when it is over {@code [server] max_body_bytes}. Once it is read (or its
   * read failed), the request goes on unless the drain ended it meanwhile ({@link AwaitedBodies}).
   */
  private byte[] readBody() throws IOException {
    try {
      return readArrivingBody();
    } finally {
      goOn();
    }
  }

  private byte[] readArrivingBody() throws IOException {
    try (InputStream in =
        StalledTransfer.withDeadline(Content.Source.asInputStream(request), request)) {
      if (request.getLength() > maxBodyBytes) {
        throw tooLarge(in);
      }
      long length = request.getLength();
      // A declared length is read exactly (no 16 KiB buffer for a 40-byte body); else up to the
      // limit and one byte more, to tell a body over it.
      byte[] body =
          length >= 0
              ? in.readNBytes((int) length)
              : in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
      if (body.length > maxBodyBytes) {
        throw tooLarge(in);
      }
      return body;
    }
  }

  /**
   * The body as {@link #jsonBody()} does, or an empty object when the request has none (no
   * Content-Length and no chunks, or a Content-Length of 0, whatever its Content-Type).
   */
  JsonNode jsonBodyOrEmpty() throws IOException {
    if (request.getLength() == 0 || (request.getLength() < 0 && !hasChunkedBody())) {
      return Json.MAPPER.createObjectNode();
    }
    return jsonBody();
  }

  /** True when the body comes in chunks (its length is not declared). */
  private boolean hasChunkedBody() {
    return request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
  }

  /** How much of a body too large the server still reads, so that the client sees the 413. */
  static final long DRAIN_LIMIT = 16L << 20;

  /**
   * The 413 for a body over the limit, after reading (and dropping) the rest of a body of modest
   * size: a client still sending when the connection closed would miss the answer.
   */
  private ApiException tooLarge(InputStream in) throws IOException {
    long left = DRAIN_LIMIT;
    byte[] sink = new byte[64 * 1024];
    int n;
    while (left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) >= 0) {
      left -= n;
    }
    return new ApiException(
        413,
        "the body is larger than "
            + maxBodyBytes
            + " bytes ([server] max_body_bytes); send a shorter text");
  }

  /** Answers {@code status} with {@code body} as JSON. */
  void json(int status, Object body) throws IOException {
    goOn();
    byte[] bytes = Json.MAPPER.writeValueAsBytes(body);
    serverTiming();
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    answered = true;
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }

  /** Answers {@code status} with {@code body} as text of {@code contentType}. */
  void text(int status, String contentType, String body) {
    goOn();
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    answered = true;
    response.write(
        true, ByteBuffer.wrap(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)), callback);
  }

  /**
   * After a call into the engine: {@code Server-Timing: engine;dur=MS, api;dur=MS}, the engine's
   * time and the whole request's (from routing to this answer), so that the API's own time can be
   * measured.
   */
  private void serverTiming() {
    long engine = engineNanos;
    if (engine >= 0) {
      response
          .getHeaders()
          .put(
              "Server-Timing",
              "engine;dur=" + engine / 1e6 + ", api;dur=" + (System.nanoTime() - startNanos) / 1e6);
    }
  }

  /** Adds a response header (before the body is sent). */
  void responseHeader(String name, String value) {
    response.getHeaders().put(name, value);
  }

  /**
   * Starts answering with server-sent events (200, {@code text/event-stream}); the caller writes
   * events and then closes the stream, which ends the response.
   */
  SseStream eventStream() {
    goOn();
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream;charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put("X-Accel-Buffering", "no");
    answered = true;
    OutputStream out = Content.Sink.asOutputStream(response);
    return new SseStream(out, callback);
  }

  boolean answered() {
    return answered;
  }

  /** The request's path and query, as sent ({@code /api/v1/messages?x=1}). */
  String pathAndQuery() {
    return request.getHttpURI().getPathQuery();
  }

  /**
   * Answers with what another node answered: its status, its content type and {@code
   * Server-Timing}, and its body, copied as it arrives (a stream of events stays a stream).
   */
  void relay(java.net.http.HttpResponse<InputStream> answer) throws IOException {
    goOn();
    response.setStatus(answer.statusCode());
    answer
        .headers()
        .firstValue("Content-Type")
        .ifPresent(type -> response.getHeaders().put(HttpHeader.CONTENT_TYPE, type));
    answer
        .headers()
        .firstValue("Server-Timing")
        .ifPresent(timing -> response.getHeaders().put("Server-Timing", timing));
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    answered = true;
    OutputStream out = Content.Sink.asOutputStream(response);
    try (InputStream in = answer.body()) {
      byte[] buffer = new byte[16 * 1024];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
      out.close();
      callback.succeeded();
    } catch (IOException e) {
      callback.failed(e);
      throw e;
    }
  }
}
