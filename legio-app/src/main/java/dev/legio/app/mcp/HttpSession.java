package dev.legio.app.mcp;

import dev.legio.mcp.RequestIdKey;
import dev.legio.mcp.RunningCall;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One MCP session over HTTP: the SDK's session, and the SSE streams it opened, kept for resumption.
 * The session's GET stream is one stream for the session's life, whatever connections carry it; the
 * last {@link #KEPT_STREAMS} POST streams are kept for replay, and of the finished ones only as
 * many as hold at most {@link #KEPT_CHARS} characters of events not yet sent in full (the oldest go
 * first; a stream sent in full keeps none, {@link SseStream}). It is in use while one of its
 * requests is answered (a connection carrying a stream is such a request), else idle since the last
 * ended ({@link SessionRetention} ends sessions left idle).
 *
 * <p>Ending it (a {@code DELETE}, left idle, the server closing) cancels its tool calls still
 * running as a {@code notifications/cancelled} of each would ({@link #cancel}): none is left
 * running for a client that is gone.
 */
final class HttpSession {
  static final int KEPT_STREAMS = 64;

  /** The most characters of finished streams' events a session keeps for replay (32 Mi). */
  static final long KEPT_CHARS = 32L << 20;

  private final McpStreamableServerSession session;
  private final AtomicLong nextStream = new AtomicLong();
  private final Map<String, SseStream> streams =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SseStream> eldest) {
          return size() > KEPT_STREAMS && eldest.getValue().finished();
        }
      };

  /** The tool calls running, by request id ({@link RequestIdKey}), each with its stream. */
  private final Map<Object, Call> calls = new HashMap<>();

  private SseStream listening;
  private boolean closed;
  private int requests;
  private long idleSince;

  /**
   * @param now {@link System#nanoTime()} (or the test's clock) when it opened
   */
  HttpSession(McpStreamableServerSession session, long now) {
    this.session = session;
    this.idleSince = now;
  }

  /** A request of this session starts; false when the session has ended. */
  synchronized boolean enter() {
    if (closed) {
      return false;
    }
    requests++;
    return true;
  }

  /** A request of this session ends at {@code now}. */
  synchronized void leave(long now) {
    requests--;
    if (requests == 0) {
      idleSince = now;
    }
  }

  /** Whether a request of this session is being answered. */
  synchronized boolean inUse() {
    return requests > 0;
  }

  /** When its last request ended (or it opened). */
  synchronized long idleSince() {
    return idleSince;
  }

  McpStreamableServerSession sdk() {
    return session;
  }

  /** A tool call running, which its client may cancel, and the stream that answers it. */
  record Call(RunningCall running, SseStream stream) {}

  /** A new stream answering one request. */
  synchronized SseStream newStream(Object requestId, String method) {
    SseStream s = new SseStream("s" + nextStream.incrementAndGet(), requestId, method);
    dropOverKeptChars();
    streams.put(s.id(), s);
    return s;
  }

  /**
   * A new tool call answered on a new stream; empty when a call with the same request id is still
   * running in this session (the client must give each request its own id). A call whose answer is
   * on its stream is over for the client, which may send its id again at once (before the call's
   * own thread has marked it ended).
   */
  synchronized Optional<Call> newCall(Object requestId, String method) {
    Object key = RequestIdKey.of(requestId);
    Call earlier = calls.get(key);
    if (earlier != null && !earlier.stream().answered()) {
      return Optional.empty();
    }
    Call call = new Call(new RunningCall(), newStream(requestId, method));
    if (closed) {
      // a request that entered before the session ended (a DELETE racing it): never begun
      call.running().cancel();
      call.stream().finish();
      return Optional.of(call);
    }
    calls.put(key, call);
    return Optional.of(call);
  }

  /** The call ended (answered, failed or cancelled): its id may be used again. */
  synchronized void callEnded(Object requestId, Call call) {
    calls.remove(RequestIdKey.of(requestId), call);
  }

  /**
   * Cancels the tool call of that request id, if one is running: it is interrupted (or never
   * begins) and its stream ends without an answer. False when there is none.
   */
  boolean cancel(Object requestKey) {
    Call call;
    synchronized (this) {
      call = calls.get(requestKey);
    }
    if (call == null || call.running().cancelled()) {
      return false;
    }
    // The stream ends first: what the tool answers once interrupted (it may return at once) then
    // finds it finished and is dropped; the other way round, it could land in between.
    call.stream().finish();
    return call.running().cancel();
  }

  /** Drops the oldest finished streams while the finished ones keep more than KEPT_CHARS. */
  private void dropOverKeptChars() {
    long kept = 0;
    for (SseStream s : streams.values()) {
      kept += s.finished() ? s.keptChars() : 0;
    }
    var it = streams.values().iterator();
    while (kept > KEPT_CHARS && it.hasNext()) {
      SseStream s = it.next();
      if (s.finished() && s != listening) {
        kept -= s.keptChars();
        it.remove();
      }
    }
  }

  /** The session's GET stream, made (and given to the SDK) on first use. */
  synchronized SseStream listening() {
    if (listening == null || listening.finished()) {
      listening = new SseStream("g" + nextStream.incrementAndGet(), null, null);
      streams.put(listening.id(), listening);
      session.listeningStream(listening);
    }
    return listening;
  }

  /** The stream an event id ({@code STREAM.N}) belongs to. */
  synchronized Optional<SseStream> stream(String streamId) {
    return Optional.ofNullable(streams.get(streamId));
  }

  /**
   * Ends the session: its running calls are cancelled, its streams finish, their connections close.
   */
  void close() {
    end(true);
  }

  /** Ends the session unless it is in use (or already ended); true when it was ended here. */
  boolean closeIfIdle() {
    return end(false);
  }

  private boolean end(boolean evenInUse) {
    synchronized (this) {
      if (!evenInUse && (closed || requests > 0)) {
        return false;
      }
      closed = true;
      streams.values().forEach(SseStream::finish); // first, as in cancel(): no answer lands
      calls.values().forEach(call -> call.running().cancel()); // interrupted, or never begun
    }
    deleteSdkSession();
    return true;
  }

  private void deleteSdkSession() {
    try {
      session.delete().block(java.time.Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      // the SDK's session is gone either way
    }
  }
}
