package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Reads a server-sent event stream with the JDK client, one parsed event at a time. */
final class SseClient implements AutoCloseable {
  record Event(String name, String id, String data) {
    JsonNode json() throws Exception {
      return ServerFixture.JSON.readTree(data);
    }
  }

  /** Put on the queue when the stream ends. */
  static final Event END = new Event("(end)", null, "{}");

  final HttpResponse<Stream<String>> response;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final Thread reader;

  SseClient(HttpResponse<Stream<String>> response) {
    this.response = response;
    this.reader = Thread.ofVirtual().start(this::read);
  }

  static SseClient open(ServerFixture f, HttpRequest request) throws Exception {
    return new SseClient(f.http.send(request, HttpResponse.BodyHandlers.ofLines()));
  }

  static SseClient events(ServerFixture f, String lastEventId) throws Exception {
    HttpRequest.Builder b =
        f.request("/api/v1/events", f.operator).header("Accept", "text/event-stream");
    if (lastEventId != null) {
      b.header("Last-Event-ID", lastEventId);
    }
    return open(f, b.timeout(Duration.ofMinutes(5)).GET().build());
  }

  private void read() {
    String name = "message";
    String id = null;
    StringBuilder data = new StringBuilder();
    try (Stream<String> lines = response.body()) {
      for (String line : (Iterable<String>) lines::iterator) {
        if (line.isEmpty()) {
          if (!data.isEmpty()) {
            events.add(new Event(name, id, data.toString()));
          }
          name = "message";
          id = null;
          data.setLength(0);
        } else if (line.startsWith("event: ")) {
          name = line.substring(7);
        } else if (line.startsWith("id: ")) {
          id = line.substring(4);
        } else if (line.startsWith("data: ")) {
          data.append(line.substring(6));
        }
      }
    } catch (RuntimeException e) {
      // the stream was closed
    } finally {
      events.add(END);
    }
  }

  /** The next event, or null after {@code seconds}. */
  Event next(long seconds) throws InterruptedException {
    return events.poll(seconds, TimeUnit.SECONDS);
  }

  /** The next event called {@code name}, skipping others; fails after {@code seconds}. */
  Event next(String name, long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      Event e = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (e == null || e == END) {
        throw new AssertionError("no '" + name + "' event" + (e == END ? ": stream ended" : ""));
      }
      if (e.name().equals(name)) {
        return e;
      }
    }
    throw new AssertionError("no '" + name + "' event within " + seconds + " s");
  }

  @Override
  public void close() {
    reader.interrupt();
    try {
      response.body().close();
    } catch (RuntimeException ignored) {
      // already closed
    }
  }
}
