package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.log.Audience;
import dev.legio.log.NewMessage;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Server-sent events: live messages, resumption without gaps, slow clients, shutdown. */
class ServerEventsTest {
  @TempDir Path dir;

  static void append(ServerFixture f, int from, int to) {
    for (int i = from; i < to; i++) {
      f.app.messageLog().append(NewMessage.of("caesar", Audience.of("vorenus"), "m" + i));
    }
  }

  /** Reads message events until {@code count} arrived; returns their texts in order. */
  static List<String> readMessages(SseClient client, int count, List<String> ids) throws Exception {
    List<String> texts = new ArrayList<>();
    while (texts.size() < count) {
      SseClient.Event e = client.next("message", 60);
      texts.add(e.json().get("text").asText());
      ids.add(e.id());
    }
    return texts;
  }

  @Test
  void aStreamWithNothingToSendOutlivesTheIdleTimeout() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(5), 4_096)) {
      // A 1 s idle timeout, and no keep-alive comment before 15 s: only a pending write may fail.
      f.restart(Duration.ofSeconds(1));
      try (SseClient client = SseClient.events(f, null)) {
        client.next("ready", 30);
        Thread.sleep(2_500);
        append(f, 0, 1);
        assertThat(client.next("message", 30).json().get("text").asText()).isEqualTo("m0");
      }
    }
  }

  @Test
  void aClientReconnectingWithLastEventIdMissesNothingAndGetsNothingTwice() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(5), 100_000)) {
      List<String> ids = new ArrayList<>();
      List<String> texts = new ArrayList<>();
      try (SseClient first = SseClient.events(f, null)) {
        first.next("ready", 30);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> append(f, 0, 300));
        texts.addAll(readMessages(first, 250, ids));
        writer.get(60, TimeUnit.SECONDS);
      }
      // Disconnected after 250 of the first 300; 700 more are logged, some of them while it
      // reconnects.
      CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> append(f, 300, 1000));
      try (SseClient second = SseClient.events(f, ids.get(ids.size() - 1))) {
        texts.addAll(readMessages(second, 750, ids));
        writer.get(60, TimeUnit.SECONDS);
        SseClient.Event extra = second.next(1);
        while (extra != null && !extra.name().equals("message")) {
          extra = second.next(1);
        }
        assertThat(extra).as("a message after the 1,000th").isNull();
      }
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        expected.add("m" + i);
      }
      assertThat(texts).containsExactlyElementsOf(expected);
      List<Long> sequences = ids.stream().map(Long::parseLong).toList();
      assertThat(sequences).isSorted().doesNotHaveDuplicates();
    }
  }

  @Test
  void aLastEventIdAboveTheNewestMessageStillGetsWhatIsLoggedFromThen() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(5), 4_096)) {
      append(f, 0, 3);
      // A client of a log since restored from an older backup knows a sequence it has not reached.
      try (SseClient client = SseClient.events(f, "100000")) {
        client.next("ready", 30);
        append(f, 3, 5);
        List<String> ids = new ArrayList<>();
        assertThat(readMessages(client, 2, ids)).containsExactly("m3", "m4");
        assertThat(ids).containsExactly("4", "5");
      }
    }
  }

  private static SseClient eventsAt(ServerFixture f, String path, String lastEventId)
      throws Exception {
    HttpRequest.Builder b =
        f.request(path, f.operator)
            .header("Accept", "text/event-stream")
            .timeout(Duration.ofMinutes(5));
    if (lastEventId != null) {
      b.header("Last-Event-ID", lastEventId);
    }
    return SseClient.open(f, b.GET().build());
  }

  /** The texts of the messages a stream sends first; the next one must be {@code following}. */
  private static List<String> replayed(SseClient client, int count, ServerFixture f, int following)
      throws Exception {
    client.next("ready", 30);
    List<String> texts = readMessages(client, count, new ArrayList<>());
    append(f, following, following + 1);
    assertThat(client.next("message", 30).json().get("text").asText())
        .as("the message after those replayed")
        .isEqualTo("m" + following);
    return texts;
  }

  /** The answer to a stream's request that should be refused; fails, not hangs, if it streams. */
  private static HttpResponse<String> refusedStream(ServerFixture f, String path, String id)
      throws Exception {
    return f.http
        .sendAsync(
            f.request(path, f.operator).header("Last-Event-ID", id).GET().build(),
            HttpResponse.BodyHandlers.ofString())
        .get(30, TimeUnit.SECONDS);
  }

  @Test
  void lastEventIdWinsOverAfterAsABrowsersEventSourceSendsBothOnReconnecting() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(5), 4_096)) {
      append(f, 0, 5); // sequences 1 to 5
      try (SseClient after = eventsAt(f, "/api/v1/events?after=1", null)) {
        assertThat(replayed(after, 4, f, 5)).containsExactly("m1", "m2", "m3", "m4");
      }
      // EventSource reconnects to the URL it opened (?after=1) with the last id it received (4).
      try (SseClient both = eventsAt(f, "/api/v1/events?after=1", "4")) {
        assertThat(replayed(both, 2, f, 6)).containsExactly("m4", "m5");
      }
      // Even a Last-Event-ID below ?after= wins: it is the client's own account of what it has.
      try (SseClient lower = eventsAt(f, "/api/v1/events?after=6", "5")) {
        assertThat(replayed(lower, 2, f, 7)).containsExactly("m5", "m6");
      }
      // ?after= is checked all the same: a URL that is wrong is refused whatever the header says.
      ServerApiTest.assertError(
          refusedStream(f, "/api/v1/events?after=1&after=2", "4"),
          400,
          "query parameter 'after' is given 2 times");
      ServerApiTest.assertError(refusedStream(f, "/api/v1/events?after=one", "4"), 400, "'after'");
    }
  }

  /** Events until one satisfies {@code last} (included). */
  static List<SseClient.Event> until(
      SseClient client, java.util.function.Predicate<SseClient.Event> last) throws Exception {
    List<SseClient.Event> seen = new ArrayList<>();
    while (true) {
      SseClient.Event e = client.next(30);
      assertThat(e).as("events so far: " + seen).isNotNull().isNotSameAs(SseClient.END);
      seen.add(e);
      if (last.test(e)) {
        return seen;
      }
    }
  }

  static boolean is(SseClient.Event e, String name, String field, String value) {
    try {
      return e.name().equals(name) && value.equals(e.json().path(field).asText());
    } catch (Exception ex) {
      return false;
    }
  }

  @Test
  void eventsCarryActivityStatusRebuildsAndTheMessagesOfEveryTurn() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(5), 4096);
        SseClient events = SseClient.events(f, null)) {
      events.next("ready", 30);
      f.post("/api/v1/messages", f.operator, Map.of("text", "@pullo dig"));
      List<SseClient.Event> seen = until(events, e -> is(e, "message", "sender", "pullo"));
      assertThat(seen).anyMatch(e -> is(e, "activity", "status", "working"));
      assertThat(seen).anyMatch(e -> is(e, "status", "text", "⏳ Thinking..."));
      SseClient.Event request =
          seen.stream().filter(e -> is(e, "message", "sender", "caesar")).findFirst().orElseThrow();
      assertThat(request.json().get("text").asText()).isEqualTo("@pullo dig");
      assertThat(request.id()).isEqualTo(request.json().get("sequence").asText());
      assertThat(seen.get(seen.size() - 1).json().get("reply_to").asText())
          .isEqualTo(request.json().get("id").asText());
      f.delete("/api/v1/sessions/pullo", f.operator);
      SseClient.Event rebuild = until(events, e -> e.name().equals("rebuild")).getLast();
      assertThat(rebuild.json().get("agent").asText()).isEqualTo("pullo");
      assertThat(rebuild.json().get("reason").asText()).isEqualTo("reset");
    }
  }

  @Test
  void aStreamWhoseTokenIsRevokedEndsWithARevokedEventAndReadsNothingLoggedAfter()
      throws Exception {
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(5), 4_096)) {
      ApiTokens tokens = new ApiTokens(f.app.workspace().castra());
      String watcher = tokens.create("watcher", Role.OPERATOR, List.of()).secret();
      try (SseClient revoked =
              SseClient.open(
                  f,
                  f.request("/api/v1/events", watcher)
                      .header("Accept", "text/event-stream")
                      .timeout(Duration.ofMinutes(5))
                      .GET()
                      .build());
          SseClient kept = SseClient.events(f, null)) {
        revoked.next("ready", 30);
        kept.next("ready", 30);
        append(f, 0, 1);
        assertThat(revoked.next("message", 30).json().get("text").asText()).isEqualTo("m0");
        assertThat(tokens.revoke("watcher")).isTrue();
        Thread.sleep(StreamTokenWatch.EVERY_NANOS / 1_000_000 + 200); // past one look at the file
        append(f, 1, 2);
        List<String> after = new ArrayList<>();
        SseClient.Event e;
        while ((e = revoked.next(30)) != null && !e.name().equals("revoked")) {
          after.add(e.name() + " " + e.data());
        }
        assertThat(e).as("a revoked event, after %s", after).isNotNull();
        assertThat(e.json().get("error").asText()).contains("'watcher'").contains("revoked");
        assertThat(after).noneMatch(line -> line.contains("m1"));
        // The operator's own stream goes on.
        assertThat(kept.next("message", 30).json().get("text").asText()).isEqualTo("m0");
        assertThat(kept.next("message", 30).json().get("text").asText()).isEqualTo("m1");
      }
      assertThat(f.get("/api/v1/status", watcher).statusCode()).isEqualTo(401);
    }
  }

  @Test
  void aClientThatCannotKeepUpIsDisconnectedWithAFinalEvent() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(5), 8)) {
      // A client that never reads: its buffer of 8 fills; turns go on meanwhile.
      HttpRequest request =
          f.request("/api/v1/events", f.operator)
              .header("Accept", "text/event-stream")
              .GET()
              .build();
      var stalled = f.http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      long t0 = System.nanoTime();
      append(f, 0, 50);
      for (int i = 0; i < 5; i++) {
        assertThat(
                f.post("/api/v1/messages", f.operator, Map.of("text", "@pullo go " + i))
                    .statusCode())
            .isEqualTo(200);
      }
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
      String all =
          new String(stalled.body().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertThat(all).contains("event: too_slow").contains("Last-Event-ID");
      assertThat(f.server.routes()).isNotEmpty();
    }
  }

  @Test
  void aStreamedTurnSendsStatusThenEachReplyThenDone() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(5), 4096)) {
      HttpRequest request =
          f.request("/api/v1/messages", f.operator)
              .header("Content-Type", "application/json")
              .header("Accept", "text/event-stream")
              .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"@vorenus @pullo report\"}"))
              .build();
      try (SseClient stream = SseClient.open(f, request)) {
        assertThat(stream.response.headers().firstValue("Content-Type"))
            .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        assertThat(stream.next("status", 30).json().get("text").asText())
            .isEqualTo("⏳ Thinking...");
        List<String> agents = new ArrayList<>();
        SseClient.Event e;
        while (!(e = stream.next(30)).name().equals("done")) {
          if (e.name().equals("reply")) {
            agents.add(e.json().get("agent").asText());
            assertThat(e.json().get("sequence").asLong()).isPositive();
          }
        }
        assertThat(agents).containsExactlyInAnyOrder("vorenus", "pullo");
        JsonNode done = e.json();
        assertThat(done.get("replies"))
            .extracting(r -> r.get("agent").asText())
            .containsExactly("vorenus", "pullo");
        assertThat(stream.next(30)).isSameAs(SseClient.END);
      }
    }
  }

  /**
   * Two clients streaming the same text at once (two console tabs, a script and the console): each
   * stream's reply events are its own request's replies, the ones its done event names, never the
   * other request's (a stream once knew its request by its text alone).
   */
  @Test
  void concurrentStreamsOfTheSameTextEachSendTheirOwnRequestsReplies() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(30), 4096)) {
      for (int round = 0; round < 8; round++) {
        String body = "{\"text\": \"@pullo @vorenus the same words " + round + "\"}";
        List<java.util.concurrent.CompletableFuture<List<SseClient.Event>>> streams =
            new ArrayList<>();
        for (int client = 0; client < 3; client++) {
          streams.add(
              java.util.concurrent.CompletableFuture.supplyAsync(
                  () -> {
                    HttpRequest request =
                        f.request("/api/v1/messages", f.operator)
                            .header("Content-Type", "application/json")
                            .header("Accept", "text/event-stream")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build();
                    List<SseClient.Event> events = new ArrayList<>();
                    try (SseClient stream = SseClient.open(f, request)) {
                      SseClient.Event e;
                      while ((e = stream.next(30)) != SseClient.END) {
                        events.add(e);
                      }
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                    return events;
                  }));
        }
        for (var stream : streams) {
          List<SseClient.Event> events = stream.get(60, java.util.concurrent.TimeUnit.SECONDS);
          java.util.Map<String, String> replied = new java.util.TreeMap<>();
          JsonNode done = null;
          for (SseClient.Event e : events) {
            if (e.name().equals("reply")) {
              replied.put(e.json().get("agent").asText(), e.json().get("id").asText());
            } else if (e.name().equals("done")) {
              done = e.json();
            }
          }
          assertThat(done).as("round %d: the stream ends with done", round).isNotNull();
          java.util.Map<String, String> answered = new java.util.TreeMap<>();
          done.get("replies")
              .forEach(r -> answered.put(r.get("agent").asText(), r.get("id").asText()));
          assertThat(replied).as("round %d: reply events vs done", round).isEqualTo(answered);
        }
      }
    }
  }

  @Test
  void shutdownWhileATurnStreamsLetsItFinishRefusesNewRequestsAndEndsEventStreams()
      throws Exception {
    ServerFixture f = new ServerFixture(dir, Duration.ofSeconds(30), 4096);
    try (SseClient events = SseClient.events(f, null)) {
      events.next("ready", 30);
      HttpRequest request =
          f.request("/api/v1/messages", f.operator)
              .header("Content-Type", "application/json")
              .header("Accept", "text/event-stream")
              .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"@vorenus #hold work\"}"))
              .build();
      try (SseClient turn = SseClient.open(f, request)) {
        assertThat(turn.next("status", 30).json().get("text").asText()).isEqualTo("⏳ Holding...");
        CompletableFuture<Void> closing = CompletableFuture.runAsync(f.server::close);
        assertThat(events.next("shutdown", 30).json().get("error").asText())
            .contains("shutting down");
        assertThat(events.next(30)).isSameAs(SseClient.END);
        // While the turn is in flight the server still listens, and refuses new requests.
        HttpResponse<String> refused = f.get("/api/v1/status", f.operator);
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(ServerFixture.json(refused).get("error").asText()).contains("shutting down");
        f.release();
        JsonNode done = turn.next("done", 30).json();
        assertThat(done.at("/replies/0/text").asText()).contains("vorenus received");
        closing.get(60, TimeUnit.SECONDS);
      }
    } finally {
      f.close();
    }
  }
}
