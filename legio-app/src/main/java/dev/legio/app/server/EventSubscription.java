package dev.legio.app.server;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One client of {@code GET /events}: a bounded buffer of the events it has not received yet. When
 * the buffer is full the subscription ends ({@link End#TOO_SLOW}) instead of waiting: a slow client
 * never slows a turn.
 */
final class EventSubscription {
  /** Why a subscription ended. */
  enum End {
    /** The client did not keep up: its buffer filled. */
    TOO_SLOW(
        "too_slow",
        "the client did not keep up with the events; reconnect with Last-Event-ID to resume"),
    /** The server is shutting down. */
    SHUTDOWN("shutdown", "Legio is shutting down; reconnect with Last-Event-ID when it is back");

    final String event;
    final String text;

    End(String event, String text) {
      this.event = event;
      this.text = text;
    }
  }

  /** Wakes a reader waiting in {@link #next} when the subscription ends. */
  private static final ServerEvent WAKE_UP = new ServerEvent("wake-up", null, "{}");

  private final BlockingQueue<ServerEvent> buffer;
  private final long replayUpTo;
  private volatile End end;

  EventSubscription(int capacity, long replayUpTo) {
    this.buffer = new ArrayBlockingQueue<>(capacity);
    this.replayUpTo = replayUpTo;
  }

  /** The newest sequence the client must read from the log; later messages arrive live. */
  long replayUpTo() {
    return replayUpTo;
  }

  /** Hands an event on; false (and the subscription ended) when the buffer is full. */
  boolean offer(ServerEvent event) {
    if (end != null) {
      return false;
    }
    if (buffer.offer(event)) {
      return true;
    }
    end(End.TOO_SLOW);
    return false;
  }

  synchronized void end(End why) {
    if (end == null) {
      end = why;
      buffer.clear();
      buffer.offer(WAKE_UP);
    }
  }

  /** Why it ended, or null while it runs. */
  End ended() {
    return end;
  }

  /** The next event, waiting up to {@code millis}; null when none came or it ended. */
  ServerEvent next(long millis) throws InterruptedException {
    if (end != null) {
      return null;
    }
    ServerEvent event = buffer.poll(millis, TimeUnit.MILLISECONDS);
    return event == WAKE_UP ? null : event;
  }
}
