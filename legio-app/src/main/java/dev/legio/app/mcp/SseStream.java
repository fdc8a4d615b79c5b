package dev.legio.app.mcp;

import dev.legio.mcp.InternalErrors;
import dev.legio.mcp.McpToolServer;
import dev.legio.mcp.RequestIdKey;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import reactor.core.publisher.Mono;

/**
 * One server-sent-event stream of an MCP session (the answer to one POST, or the session's GET
 * stream), kept apart from the HTTP connection that carries it so that a client can reconnect and
 * resume it.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every event has an id {@code STREAM.N} (N counts from 1 on this stream); a connection opens
 *       with a priming event: the id of the last event so far, {@code retry:} {@link #RETRY} and
 *       empty data, sent and flushed at once, so headers never wait for the first message.
 *   <li>Every event is kept until a connection has sent it and every event before it, and the
 *       stream has finished: then the stream's events are released (the response ended whole, so
 *       nothing of it is left to resume), and only their count stays. Until then a GET with {@code
 *       Last-Event-ID: STREAM.N} replays the events after N and then carries the rest of the stream
 *       ({@link HttpSession} bounds how many streams and how many characters of events a session
 *       keeps).
 *   <li>One connection at a time: a new one takes the stream over; a connection that fails to write
 *       is dropped, and the events it missed stay kept.
 *   <li>Only the thread carrying a connection writes to it, outside the stream's lock: adding an
 *       event (a tool's answer, the SDK's notification) or ending the session never waits for a
 *       client's socket, so a client that stops reading holds up nothing but its own connection,
 *       until the server's idle timeout fails its write.
 *   <li>A POST's stream finishes when the answer to its request is sent; the connection then ends.
 *   <li>An idle connection gets an SSE comment every {@link #KEEP_ALIVE}, which finds out when the
 *       client has gone.
 * </ul>
 */
final class SseStream implements McpStreamableServerTransport {
  /** How long a client waits before reconnecting a dropped stream. */
  static final Duration RETRY = Duration.ofSeconds(1);

  static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

  private final String id;
  private final Object answers;
  private final String method;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  /** The events not released, from event {@code released + 1} on. */
  private final List<String> events = new ArrayList<>();

  /** How many events were released: sent in full on a finished stream. */
  private int released;

  private long keptChars;
  private OutputStream connection;
  private boolean finished;
  private boolean answered;

  /**
   * @param id the stream's id, unique in its session
   * @param answers the id of the request whose answer finishes the stream, or {@code null} for a
   *     session's GET stream (finished only with its session)
   * @param method that request's method, for the error messages
   */
  SseStream(String id, Object answers, String method) {
    this.id = id;
    this.method = method;
    this.answers = answers == null ? null : key(answers);
  }

  String id() {
    return id;
  }

  boolean finished() {
    lock.lock();
    try {
      return finished;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Carries the stream on a connection: writes the priming event, the events after {@code
   * afterEvent} (0 for all), then each new event, until the stream finishes, another connection
   * takes it over, or writing fails. Blocks the calling thread all that time; it is the only thread
   * that writes to {@code out}, and it writes without holding the stream's lock.
   */
  void carry(OutputStream out, long afterEvent) {
    int next;
    lock.lock();
    try {
      connection = out;
      changed.signalAll(); // the connection it takes over from stops at once
      next = (int) Math.min(Math.max(released, afterEvent), total());
    } finally {
      lock.unlock();
    }
    String pending = "id: " + id + "." + next + "\nretry: " + RETRY.toMillis() + "\ndata: \n\n";
    int sent = -1;
    try {
      while (pending != null && write(out, pending)) {
        sent = next;
        lock.lock();
        try {
          pending = nextWrite(out, next);
          next = total();
        } finally {
          lock.unlock();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.lock();
      try {
        if (connection == out) {
          connection = null;
        }
        if (finished && sent == total()) {
          release(); // the response ended whole: nothing of it is left to resume
        }
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * Under the lock: what {@code out} writes next, once there is something: the events from {@code
   * next} on, or a keep-alive comment after {@link #KEEP_ALIVE} of nothing; {@code null} when it
   * stops carrying (finished with everything written, or taken over).
   */
  private String nextWrite(OutputStream out, int next) throws InterruptedException {
    while (connection == out && next == total() && !finished) {
      if (!changed.await(KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS)
          && connection == out
          && next == total()) {
        return ": keep-alive\n\n";
      }
    }
    if (connection != out || next == total()) {
      return null;
    }
    return String.join("", events.subList(next - released, events.size()));
  }

  /** Under the lock: how many events the stream has had, released ones included. */
  private int total() {
    return released + events.size();
  }

  /** Under the lock: drops every event, keeping their count. */
  private void release() {
    released = total();
    events.clear();
    keptChars = 0;
  }

  /** How many characters of events the stream keeps for replay. */
  long keptChars() {
    lock.lock();
    try {
      return keptChars;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether the events after {@code afterEvent} can still be replayed: false when some of them were
   * released, sent in full on an earlier connection.
   */
  boolean replays(long afterEvent) {
    lock.lock();
    try {
      return afterEvent >= released;
    } finally {
      lock.unlock();
    }
  }

  /** Ends the stream: its connection closes; its events not yet sent in full stay for replay. */
  void finish() {
    lock.lock();
    try {
      finished = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Whether the request's answer was given to this stream (sent, or kept for the client). */
  boolean answered() {
    lock.lock();
    try {
      return answered;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return sendMessage(message, null);
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, String messageId) {
    return Mono.fromRunnable(() -> append(message));
  }

  /**
   * Adds one message as the next event for the connection carrying the stream (if any) to send, and
   * finishes the stream on the answer. Never waits for a connection: a client that stops reading
   * holds up only its own connection's thread.
   */
  void append(McpSchema.JSONRPCMessage message) {
    String json;
    try {
      json = McpToolServer.JSON_MAPPER.writeValueAsString(InternalErrors.guard(message, method));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    lock.lock();
    try {
      if (finished) {
        return;
      }
      String event = "id: " + id + "." + (total() + 1) + "\nevent: message\ndata: " + json + "\n\n";
      events.add(event);
      keptChars += event.length();
      if (answers != null
          && message instanceof McpSchema.JSONRPCResponse r
          && answers.equals(key(r.id()))) {
        answered = true;
        finished = true;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Writes and flushes; false when the connection failed (the events stay kept). */
  private static boolean write(OutputStream out, String text) {
    try {
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  static Object key(Object requestId) {
    return RequestIdKey.of(requestId);
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
    return McpToolServer.JSON_MAPPER.convertValue(data, type);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return answers == null ? Mono.empty() : Mono.fromRunnable(this::finish);
  }
}
