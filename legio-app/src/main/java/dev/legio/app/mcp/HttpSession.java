package dev.legio.app.mcp;

import io.modelcontextprotocol.spec.McpStreamableServerSession;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One MCP session over HTTP: the SDK's session, and the SSE streams it opened, kept for resumption.
 * The session's GET stream is one stream for the session's life, whatever connections carry it; the
 * last {@link #KEPT_STREAMS} POST streams are kept for replay.
 */
final class HttpSession {
  static final int KEPT_STREAMS = 64;

  private final McpStreamableServerSession session;
  private final AtomicLong nextStream = new AtomicLong();
  private final Map<String, SseStream> streams =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SseStream> eldest) {
          return size() > KEPT_STREAMS && eldest.getValue().finished();
        }
      };
  private SseStream listening;
  private boolean closed;

  HttpSession(McpStreamableServerSession session) {
    this.session = session;
  }

  McpStreamableServerSession sdk() {
    return session;
  }

  /** A new stream answering one request. */
  synchronized SseStream newStream(Object requestId, String method) {
    SseStream s = new SseStream("s" + nextStream.incrementAndGet(), requestId, method);
    streams.put(s.id(), s);
    return s;
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

  synchronized boolean closed() {
    return closed;
  }

  /** Ends the session: its streams finish, their connections close. */
  void close() {
    synchronized (this) {
      closed = true;
      streams.values().forEach(SseStream::finish);
    }
    try {
      session.delete().block(java.time.Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      // the SDK's session is gone either way
    }
  }
}
