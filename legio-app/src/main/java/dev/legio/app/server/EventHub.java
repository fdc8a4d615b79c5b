package dev.legio.app.server;

import dev.legio.backend.BackendEvent;
import dev.legio.log.MessageLog;
import dev.legio.session.RebuildReason;
import dev.legio.session.SessionEventListener;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live events of {@code GET /events}: every message logged, agents' activity, status lines,
 * rebuilds and compactions, handed to each subscriber's bounded buffer.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Messages are read from the log (the source of truth) in sequence order, so those written by
 *       other processes sharing the store reach the clients too. The feed reads when the engine
 *       reports activity and at least every {@code pollInterval}.
 *   <li>A subscriber registered at feed position H receives live every message above H; it reads
 *       those it asked for up to H from the log itself ({@link EventSubscription#replayUpTo()}). So
 *       a client resuming with {@code Last-Event-ID} misses none and gets none twice.
 *   <li>Publishing never waits: a subscriber whose buffer is full is ended (see {@link
 *       EventSubscription}).
 *   <li>Session events (activity, status lines, rebuilds, compactions) carry no id: they are live
 *       only and not replayed.
 *   <li>With no subscriber, nothing is built or read: a turn's session events cost nothing when no
 *       event stream is open, and the feed only moves its position.
 * </ul>
 */
final class EventHub implements SessionEventListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EventHub.class);

  private final MessageLog messageLog;
  private final int bufferSize;
  private final Duration pollInterval;
  private final List<EventSubscription> subscribers = new CopyOnWriteArrayList<>();
  private final Semaphore wakeUp = new Semaphore(0);
  private final Object lock = new Object();
  private long cursor;
  private volatile boolean closed;
  private Thread feed;

  EventHub(MessageLog messageLog, int bufferSize, Duration pollInterval) {
    this.messageLog = messageLog;
    this.bufferSize = bufferSize;
    this.pollInterval = pollInterval;
  }

  void start() {
    cursor = messageLog.lastSequence();
    feed = Thread.ofVirtual().name("legio-events").start(this::run);
  }

  /**
   * A new subscriber, receiving live every message above the feed's position and every session
   * event from now on.
   */
  EventSubscription subscribe() {
    synchronized (lock) {
      EventSubscription s = new EventSubscription(bufferSize, cursor);
      if (closed) {
        s.end(EventSubscription.End.SHUTDOWN);
      } else {
        subscribers.add(s);
      }
      return s;
    }
  }

  void unsubscribe(EventSubscription s) {
    subscribers.remove(s);
  }

  int subscribers() {
    return subscribers.size();
  }

  /** Asks the feed to read the log now (a message was probably logged). */
  void wake() {
    if (wakeUp.availablePermits() == 0) {
      wakeUp.release();
    }
  }

  private void run() {
    while (!closed) {
      try {
        wakeUp.tryAcquire(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
        wakeUp.drainPermits();
        if (!closed) {
          readNewMessages();
        }
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        log.warn("reading new messages for /events failed; trying again", e);
      }
    }
  }

  private void readNewMessages() {
    long last = messageLog.lastSequence();
    synchronized (lock) {
      if (subscribers.isEmpty()) {
        cursor = Math.max(cursor, last);
        return;
      }
    }
    long from;
    synchronized (lock) {
      from = cursor;
    }
    if (from >= last) {
      return;
    }
    LogPages.forEach(
        messageLog,
        from,
        last,
        m -> {
          ServerEvent event =
              ServerEvent.of("message", Long.toString(m.sequence()), Views.message(m));
          synchronized (lock) {
            deliver(event);
            cursor = m.sequence();
          }
        });
    synchronized (lock) {
      cursor = Math.max(cursor, last);
    }
  }

  /**
   * Hands a session event to every subscriber; with none, the event is not even built (a turn tells
   * several, and most servers have no event stream open most of the time).
   */
  void publish(Supplier<ServerEvent> event) {
    if (subscribers.isEmpty()) {
      return;
    }
    ServerEvent built = event.get();
    if (built == null) {
      return;
    }
    synchronized (lock) {
      deliver(built);
    }
  }

  private void deliver(ServerEvent event) {
    for (EventSubscription s : subscribers) {
      if (!s.offer(event)) {
        subscribers.remove(s);
      }
    }
  }

  // ------------------------------------------------------------------ engine events

  @Override
  public void activityChanged(String owner, String activity) {
    publish(() -> ServerEvent.of("activity", Map.of("agent", owner, "status", activity)));
    wake();
  }

  @Override
  public void rebuilt(String owner, RebuildReason reason) {
    publish(
        () ->
            ServerEvent.of(
                "rebuild",
                Map.of(
                    "agent",
                    owner,
                    "reason",
                    reason.name().toLowerCase(Locale.ROOT),
                    "description",
                    reason.description())));
  }

  @Override
  public void condensed(String owner, String previousId, String newId, long tokens) {
    publish(
        () -> {
          Map<String, Object> data = new java.util.LinkedHashMap<>();
          data.put("agent", owner);
          data.put("previous_backend_session_id", previousId);
          data.put("backend_session_id", newId);
          data.put("tokens", tokens);
          return ServerEvent.of("condense", data);
        });
  }

  @Override
  public void backendEvent(String owner, BackendEvent event) {
    publish(() -> sessionEvent(owner, event));
  }

  /** The event a back-end's event becomes on the stream; null for those not shown there. */
  private static ServerEvent sessionEvent(String owner, BackendEvent event) {
    return switch (event) {
      case BackendEvent.Status s ->
          ServerEvent.of("status", Map.of("agent", owner, "text", s.text()));
      case BackendEvent.CompactionStarted c ->
          compaction(owner, "started", "messages", c.messages(), "tokens", c.tokens());
      case BackendEvent.CompactionEnded c ->
          compaction(
              owner,
              "ended",
              "messages_compacted",
              c.messagesCompacted(),
              "tokens_freed",
              c.tokensBefore() - c.tokensAfter());
      case BackendEvent.CompactionFailed c ->
          compaction(owner, "failed", "reason", c.reason(), "auto_compact_off", c.disabled());
      case BackendEvent.Text t -> null;
      case BackendEvent.ToolCall t -> null;
    };
  }

  private static ServerEvent compaction(
      String owner, String phase, String k1, Object v1, String k2, Object v2) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("agent", owner);
    data.put("phase", phase);
    data.put(k1, v1);
    data.put(k2, v2);
    return ServerEvent.of("compaction", data);
  }

  /** Ends every subscription ({@link EventSubscription.End#SHUTDOWN}) and stops the feed. */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      for (EventSubscription s : subscribers) {
        s.end(EventSubscription.End.SHUTDOWN);
      }
      subscribers.clear();
    }
    if (feed != null) {
      feed.interrupt();
    }
  }
}
