package dev.legio.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.errors.Quoted;
import dev.legio.text.Utf8Lines;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * MCP over stdin and stdout, one JSON-RPC message a line, in place of the SDK's {@code
 * StdioServerTransportProvider} (mcp-core 2.1.0), which stops reading for good at the first line it
 * cannot deserialise (non-JSON, truncated JSON, {@code null}, a batch) and leaves requests with bad
 * params unanswered. No upstream issue names the server side yet; the client side is
 * modelcontextprotocol/java-sdk#199, the same {@code break} in the read loop.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every line is judged by {@link IncomingMessageCheck}: what fails is answered at once with a
 *       JSON-RPC error ({@code -32700} for what is not JSON, {@code -32600} for what is not a
 *       JSON-RPC message, {@code -32602} for bad params) and reading goes on.
 *   <li>Every request with an id is answered, exactly once: if the SDK's session finishes a request
 *       without answering it, or fails, Legio answers {@code -32603} naming the method; an answer
 *       that comes after Legio answered for it (a call that ends after stdin closed) is dropped. A
 *       request that reuses the id of one still running gets {@code -32600}.
 *   <li>{@code notifications/cancelled} ({@link Cancellation}): a request still pending, but {@code
 *       initialize}, is never answered; its tool call is not run, or is interrupted. Its id stays
 *       taken until the session has finished with it.
 *   <li>A line that is not UTF-8 ({@link Utf8Lines}) is answered {@code -32700} naming the line and
 *       the byte, as MCP over HTTP answers such a body: never read as U+FFFD, which a tool given
 *       the text would store. Blank lines are skipped.
 *   <li>The SDK's session holds requests until {@code notifications/initialized}, unanswered; so a
 *       {@code ping} before it is answered here (the lifecycle allows pings at any time), and any
 *       other request but {@code initialize} before it gets {@code -32600} at once, saying what to
 *       send first.
 *   <li>When stdin ends, requests still running get {@link #DRAIN} to answer; any still unanswered
 *       then get {@code -32603} saying why (never run: no {@code notifications/initialized}; or
 *       still running), and {@code legio mcp} exits well within a second of stdin closing.
 *   <li>Nothing but protocol lines is written to stdout, one whole line at a time.
 * </ul>
 */
public final class StdioTransport implements McpServerTransportProvider {
  private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

  /** How long requests still running when stdin ends may take to answer. */
  public static final Duration DRAIN = Duration.ofMillis(700);

  /** How long an answer already being written when {@link #DRAIN} ends may take to finish. */
  private static final Duration ANSWER_IN_FLIGHT = Duration.ofMillis(200);

  private final InputStream in;
  private final OutputStream out;
  private final IncomingMessageCheck check;
  private final CountDownLatch ended = new CountDownLatch(1);
  private final Map<Object, Pending> pending = new ConcurrentHashMap<>();
  private final AtomicInteger answering = new AtomicInteger();
  private volatile boolean initialized;
  private volatile boolean initializeSeen;
  private volatile McpServerSession session;
  private volatile boolean closed;

  /** A request handed to the session and not yet answered; the client may cancel it. */
  private record Pending(McpSchema.JSONRPCRequest request, RunningCall call) {}

  public StdioTransport(InputStream in, OutputStream out, IncomingMessageCheck check) {
    this.in = in;
    this.out = out;
    this.check = check;
  }

  @Override
  public List<String> protocolVersions() {
    return McpVersions.SUPPORTED;
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory factory) {
    this.session = factory.create(new SessionTransport());
    Thread reader = new Thread(this::readLoop, "legio-mcp-stdin");
    reader.setDaemon(true);
    reader.start();
  }

  /** Waits until stdin has ended and the last answers are written (or the transport closed). */
  public void awaitEnd() throws InterruptedException {
    ended.await();
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.sendNotification(method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(
        () -> {
          closed = true;
          ended.countDown();
        });
  }

  private void readLoop() {
    try (in) {
      Utf8Lines lines = new Utf8Lines(in);
      Utf8Lines.Line line;
      while (!closed && (line = lines.next()) != null) {
        switch (line) {
          case Utf8Lines.Text(String text) -> {
            if (!text.isBlank()) {
              receive(text);
            }
          }
          case Utf8Lines.NotUtf8 bad ->
              // Never read as U+FFFD: a tool would store the replacement, not what was sent.
              write(
                  JsonRpcError.withoutId(
                          JsonRpcError.PARSE_ERROR,
                          "parse error: line "
                              + bad.number()
                              + " is not UTF-8 at byte "
                              + bad.where().offset()
                              + " ("
                              + bad.where().bytes()
                              + "); send each message in UTF-8")
                      .toJsonText());
        }
      }
    } catch (IOException | UncheckedIOException e) {
      log.debug("MCP stdin ended with an error: {}", e.getMessage());
    } finally {
      drain(DRAIN);
      for (Pending left : pending.values()) {
        answerOnce(
            RequestIdKey.of(left.request().id()),
            asked ->
                error(
                    asked,
                    initialized
                        ? "stdin closed while '"
                            + asked.method()
                            + "' was still running; its result is lost"
                        : "'"
                            + asked.method()
                            + "' was not run: the client closed stdin before it sent"
                            + " notifications/initialized"));
      }
      drain(ANSWER_IN_FLIGHT); // an answer claimed just before the deadline is written whole
      ended.countDown();
    }
  }

  /**
   * Takes the request {@code key} out of the running set and, when this caller is the one that took
   * it, writes the line {@code answer} makes for it: so each request is answered once, by the
   * session's answer or by Legio's error, whichever comes first; a request the client cancelled is
   * taken out unanswered. While it writes, {@link #drain} waits for it.
   */
  private void answerOnce(Object key, Function<McpSchema.JSONRPCRequest, String> answer) {
    answering.incrementAndGet(); // before the removal: drain never sees neither
    try {
      Pending asked = pending.remove(key);
      if (asked == null) {
        log.debug(
            "MCP: a late answer to request {} was dropped; it was answered",
            Quoted.of(String.valueOf(key)));
        return;
      }
      if (asked.call().cancelled()) {
        log.debug(
            "MCP: the answer to request {} was dropped; the client cancelled it",
            Quoted.of(String.valueOf(key)));
        return;
      }
      write(answer.apply(asked.request()));
    } finally {
      answering.decrementAndGet();
    }
  }

  private void receive(String line) {
    switch (check.check(line)) {
      case IncomingMessage.Rejected(JsonRpcError answer) -> {
        if (answer != null) {
          write(answer.toJsonText());
        }
      }
      case IncomingMessage.Accepted(McpSchema.JSONRPCMessage message) -> handle(message);
    }
  }

  private void handle(McpSchema.JSONRPCMessage message) {
    if (Cancellation.is(message)) {
      // never to the SDK's session, which logs a notification it has no handler for
      cancel(message);
      return;
    }
    if (message instanceof McpSchema.JSONRPCNotification n
        && n.method().equals(McpSchema.METHOD_NOTIFICATION_INITIALIZED)) {
      initialized = true;
    }
    if (!(message instanceof McpSchema.JSONRPCRequest request)) {
      session.handle(message).onErrorResume(e -> Mono.empty()).subscribe();
      return;
    }
    if (!initialized && request.method().equals(McpSchema.METHOD_PING)) {
      // The SDK's session holds every request until notifications/initialized; a ping may come
      // before it (MCP lifecycle), so Legio answers it here.
      write(
          "{\"jsonrpc\":\"2.0\",\"id\":"
              + McpToolServer.JSON_MAPPER.convertValue(request.id(), JsonNode.class)
              + ",\"result\":{}}");
      return;
    }
    if (!initialized && !request.method().equals(McpSchema.METHOD_INITIALIZE)) {
      // The SDK's session would hold it until notifications/initialized, unanswered.
      write(
          new JsonRpcError(
                  McpToolServer.JSON_MAPPER.convertValue(request.id(), JsonNode.class),
                  JsonRpcError.INVALID_REQUEST,
                  "'"
                      + Quoted.of(request.method())
                      + "' came before "
                      + (initializeSeen
                          ? "notifications/initialized: send it after the answer to initialize,"
                              + " then this request again"
                          : "initialize: send initialize, then notifications/initialized, then"
                              + " this request again"))
              .toJsonText());
      return;
    }
    if (request.method().equals(McpSchema.METHOD_INITIALIZE)) {
      initializeSeen = true;
    }
    Object key = RequestIdKey.of(request.id());
    RunningCall call = new RunningCall();
    if (pending.putIfAbsent(key, new Pending(request, call)) != null) {
      write(
          new JsonRpcError(
                  McpToolServer.JSON_MAPPER.convertValue(request.id(), JsonNode.class),
                  JsonRpcError.INVALID_REQUEST,
                  "id "
                      + McpToolServer.JSON_MAPPER.convertValue(request.id(), JsonNode.class)
                      + " is already used by a request still running; give each request its own"
                      + " id")
              .toJsonText());
      return;
    }
    session
        .handle(message)
        .contextWrite(call.context())
        .doOnError(e -> log.warn("MCP request {} failed", request.method(), e))
        .onErrorResume(e -> Mono.empty())
        .doFinally(
            signal ->
                answerOnce(key, asked -> error(asked, InternalErrors.messageFor(asked.method()))))
        .subscribe();
  }

  /**
   * A client's {@code notifications/cancelled}: the request it names, if still pending and not
   * {@code initialize}, is never answered ({@link Cancellation}).
   */
  private void cancel(McpSchema.JSONRPCMessage message) {
    Optional<Cancellation> asked = Cancellation.of(message);
    if (asked.isEmpty()) {
      log.debug("MCP: a notifications/cancelled naming no request id was ignored");
      return;
    }
    Pending running = pending.get(asked.get().key());
    if (running == null || running.request().method().equals(McpSchema.METHOD_INITIALIZE)) {
      log.debug(
          "MCP: cancelling {} changed nothing: not running, or initialize", asked.get().describe());
      return;
    }
    if (running.call().cancel()) {
      log.debug("MCP: the client cancelled {}", asked.get().describe());
    }
  }

  private static String error(McpSchema.JSONRPCRequest request, String message) {
    return new JsonRpcError(
            McpToolServer.JSON_MAPPER.convertValue(request.id(), JsonNode.class),
            JsonRpcError.INTERNAL_ERROR,
            message)
        .toJsonText();
  }

  /** Waits up to {@code limit} for the requests running to be answered and the answers written. */
  private void drain(Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while ((!pending.isEmpty() || answering.get() > 0) && System.nanoTime() < deadline) {
      try {
        TimeUnit.MILLISECONDS.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void write(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (out) {
      try {
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        log.debug("MCP stdout closed: {}", e.getMessage());
      }
    }
  }

  /** The session's side: what the SDK sends goes out as one line. */
  private final class SessionTransport implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(
          () -> {
            if (message instanceof McpSchema.JSONRPCResponse response) {
              answerOnce(
                  RequestIdKey.of(response.id()),
                  asked -> {
                    try {
                      return McpToolServer.JSON_MAPPER.writeValueAsString(
                          InternalErrors.guard(message, asked.method()));
                    } catch (IOException e) {
                      log.warn("MCP: an answer could not be written as JSON", e);
                      return error(asked, InternalErrors.messageFor(asked.method()));
                    }
                  });
              return;
            }
            try {
              write(McpToolServer.JSON_MAPPER.writeValueAsString(message));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
      return McpToolServer.JSON_MAPPER.convertValue(data, type);
    }

    @Override
    public List<String> protocolVersions() {
      return McpVersions.SUPPORTED;
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }
  }
}
