package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.testing.LogCapture;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /readyz} over real HTTP: ready on a reachable, migrated store; 503 naming the check
 * when a migration is missing or an unreachable store; 503 while the node drains at shutdown, when
 * the turn in flight still finishes and new turns are refused.
 */
class ServerReadinessTest {
  @TempDir Path dir;
  private ServerFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new ServerFixture(dir, Duration.ofSeconds(5), 4096);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void aNodeOnAReachableMigratedStoreIsReadyWithoutAToken() throws Exception {
    HttpResponse<String> ready = f.get("/readyz", null);

    assertThat(ready.statusCode()).isEqualTo(200);
    JsonNode body = ServerFixture.json(ready);
    assertThat(body.get("status").asText()).isEqualTo("ready");
    assertThat(body.get("store_reachable").asBoolean()).isTrue();
    assertThat(body.get("migrations_current").asBoolean()).isTrue();
    assertThat(body.get("writes_succeeding").asBoolean()).isTrue();
    assertThat(body.get("draining").asBoolean()).isFalse();
    assertThat(body.get("reasons")).isEmpty();
  }

  @Test
  void aStoreWithoutThisBuildsLatestMigrationIsNotReadyAndSaysWhich() throws Exception {
    Path db = f.root.resolve("castra/praetorium.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM flyway_schema_history WHERE version = '12'");
    }

    HttpResponse<String> ready = f.get("/readyz", null);

    assertThat(ready.statusCode()).isEqualTo(503);
    JsonNode body = ServerFixture.json(ready);
    assertThat(body.get("store_reachable").asBoolean()).isTrue();
    assertThat(body.get("migrations_current").asBoolean()).isFalse();
    assertThat(body.get("reasons").get(0).asText()).contains("migrations not applied: V12");
  }

  @Test
  void aNodeWhoseDatabaseWritesFailIsNotReadyUntilAWriteSucceedsAgain() throws Exception {
    Path db = f.root.resolve("castra/praetorium.db");
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = other.createStatement()) {
      s.execute("BEGIN IMMEDIATE"); // another program holds the write lock
      CompletableFuture<Void> write =
          CompletableFuture.runAsync(
              () ->
                  f.app
                      .messageLog()
                      .append(
                          dev.legio.log.NewMessage.of(
                              "caesar", dev.legio.log.Audience.of("vorenus"), "locked out")));
      assertThat(f.get("/readyz", null).statusCode())
          .as("a write waiting on a lock, within SQLite's busy wait")
          .isEqualTo(200);
      assertThat(write).failsWithin(Duration.ofSeconds(30));

      HttpResponse<String> notReady = f.get("/readyz", null);

      assertThat(notReady.statusCode()).isEqualTo(503);
      JsonNode body = ServerFixture.json(notReady);
      assertThat(body.get("status").asText()).isEqualTo("not ready");
      assertThat(body.get("store_reachable").asBoolean()).isTrue();
      assertThat(body.get("writes_succeeding").asBoolean()).isFalse();
      assertThat(body.get("reasons").get(0).asText())
          .startsWith("database writes failing: the last write to the database failed: ")
          .contains("database is locked")
          .contains("another program has held the database file's write lock");
      s.execute("ROLLBACK");
    }
    // Out of rotation, the node gets no writes: its own probe finds the database writable again.
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    HttpResponse<String> ready = f.get("/readyz", null);
    while (ready.statusCode() != 200 && System.nanoTime() < deadline) {
      Thread.sleep(50);
      ready = f.get("/readyz", null);
    }
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    assertThat(ServerFixture.json(ready).get("writes_succeeding").asBoolean()).isTrue();
  }

  /**
   * A write the database refuses for what it holds (here a trigger another program added refuses a
   * sender) fails alone: the database takes other writes, another node would be refused the same,
   * so the node stays in rotation. It used to answer 503 until the next write or its probe.
   */
  @Test
  void aWriteTheDatabaseRefusesForWhatItHoldsLeavesTheNodeReady() throws Exception {
    Path db = f.root.resolve("castra/praetorium.db");
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = other.createStatement()) {
      s.execute(
          "CREATE TRIGGER refuse_poison BEFORE INSERT ON nuntii WHEN NEW.sender = 'poison'"
              + " BEGIN SELECT RAISE(ABORT, 'the test refuses this sender'); END");
    }
    assertThat(
            CompletableFuture.runAsync(
                () ->
                    f.app
                        .messageLog()
                        .append(
                            dev.legio.log.NewMessage.of(
                                "poison", dev.legio.log.Audience.of("vorenus"), "refused"))))
        .failsWithin(Duration.ofSeconds(30))
        .withThrowableThat()
        .withMessageContaining("the test refuses this sender");

    HttpResponse<String> ready = f.get("/readyz", null);

    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    assertThat(ServerFixture.json(ready).get("writes_succeeding").asBoolean()).isTrue();
  }

  @Test
  void theClockOffsetIsShownWhenMeasuredAndIsNoCheck() {
    Readiness measured =
        new Readiness(
            Readiness.StoreHealth::healthy,
            () -> java.util.Optional.of(java.time.Duration.ofMillis(-42_000)));
    Readiness.Report report = measured.check();

    assertThat(report.ready()).isTrue();
    assertThat(report.json()).containsEntry("clock_offset_ms", -42_000L);
    assertThat(new Readiness(Readiness.StoreHealth::healthy).check().json())
        .doesNotContainKey("clock_offset_ms");
  }

  @Test
  void anUnreachableStoreIsNotReady() {
    Readiness readiness =
        new Readiness(
            () -> {
              throw new IllegalStateException("cannot connect to PostgreSQL at 127.0.0.1:5999");
            });

    Readiness.Report report = readiness.check();

    assertThat(report.ready()).isFalse();
    assertThat(report.storeReachable()).isFalse();
    assertThat(report.reasons())
        .containsExactly("store unreachable: cannot connect to PostgreSQL at 127.0.0.1:5999");
  }

  @Test
  void whileDrainingReadyzIs503NewTurnsAre503AndTheTurnInFlightFinishes() throws Exception {
    CompletableFuture<HttpResponse<String>> inFlight = f.postHeld("@vorenus #hold");

    CompletableFuture<Void> draining = CompletableFuture.runAsync(f.server::close);
    HttpResponse<String> ready = awaitNotReady();

    JsonNode body = ServerFixture.json(ready);
    assertThat(body.get("draining").asBoolean()).isTrue();
    assertThat(body.get("store_reachable").asBoolean()).isTrue();
    assertThat(body.get("reasons").get(0).asText()).startsWith("draining");
    assertThat(f.get("/healthz", null).statusCode()).isEqualTo(200);
    HttpResponse<String> refused =
        f.post("/api/v1/messages", f.operator, Map.of("text", "@pullo a new turn"));
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(ServerFixture.json(refused).get("error").asText()).contains("shutting down");
    assertThat(draining).isNotDone();

    f.release();
    HttpResponse<String> finished = inFlight.get(30, TimeUnit.SECONDS);
    assertThat(finished.statusCode()).isEqualTo(200);
    JsonNode replies = ServerFixture.json(finished).get("replies");
    assertThat(replies).hasSize(1);
    assertThat(replies.get(0).get("agent").asText()).isEqualTo("vorenus");
    draining.get(30, TimeUnit.SECONDS);
    List<String> senders = f.app.messageLog().history(10).stream().map(m -> m.sender()).toList();
    assertThat(senders).containsExactly("caesar", "vorenus");
  }

  @Test
  void aTurnStillRunningWhenTheGraceEndsIsInterruptedAndItsCallerAnsweredBeforeTheListenerCloses()
      throws Exception {
    ServerFixture g =
        new ServerFixture(
            dir.resolve("grace"), Duration.ofSeconds(5), 4096, Map.of(), Duration.ofSeconds(1));
    try {
      CompletableFuture<HttpResponse<String>> inFlight = g.postHeld("@vorenus #hold");
      long start = System.nanoTime();
      g.server.close(); // never released: the turn outlasts the 1 s grace

      HttpResponse<String> answered = inFlight.get(30, TimeUnit.SECONDS);
      assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
      // Interrupted, the held turn goes on to the model (this one does not stop for it) and its
      // answer reaches the caller, who is still connected.
      JsonNode reply = ServerFixture.json(answered).at("/replies/0");
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("the grace, the interrupted answer, Jetty's stop: not the grace again")
          .isLessThan(Duration.ofSeconds(1 + 2).plus(LegioServer.ANSWER_INTERRUPTED));
      List<String> logged =
          g.app.messageLog().history(10).stream().map(m -> m.sender() + ": " + m.text()).toList();
      assertThat(logged).hasSize(2);
      assertThat(logged.get(1)).isEqualTo("vorenus: " + reply.get("text").asText());
    } finally {
      g.release();
      g.close();
    }
  }

  @Test
  void aTaskStillRunningWhenTheGraceEndsIsAnswered503BeforeTheListenerCloses() throws Exception {
    ServerFixture g =
        new ServerFixture(
            dir.resolve("task-grace"),
            Duration.ofSeconds(5),
            4096,
            Map.of(),
            Duration.ofSeconds(1));
    try {
      CompletableFuture<HttpResponse<String>> inFlight =
          g.postHeld(
              "/api/v1/tasks",
              g.task,
              Map.of(
                  "session_key",
                  "campaign:7",
                  "agent",
                  "vorenus",
                  "text",
                  "#hold #stop-when-interrupted"));
      long start = System.nanoTime();
      g.server.close(); // never released: the task outlasts the 1 s grace

      HttpResponse<String> answered = inFlight.get(30, TimeUnit.SECONDS);
      assertThat(answered.statusCode()).as(answered.body()).isEqualTo(503);
      assertThat(ServerFixture.json(answered).get("error").asText())
          .contains("Legio shut down before vorenus answered the task")
          .contains("send it again");
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(Duration.ofSeconds(1 + 2).plus(LegioServer.ANSWER_INTERRUPTED));
    } finally {
      g.release();
      g.close();
    }
  }

  /**
   * A client that promised a body of 1,000 bytes and sent 10 has dispatched nothing: the drain ends
   * its request at once (503, the connection closed) instead of waiting for the body until the idle
   * time-out (30 s), while a turn already dispatched still finishes. Nothing of it is logged.
   */
  @Test
  void aRequestStillWaitingForItsBodyIsEndedAtOnceWhenTheDrainStarts() throws Exception {
    java.net.URI base = f.uri("/");
    String body = "{\"text\": \"@pullo never whole\"}";
    try (LogCapture log = new LogCapture();
        java.net.Socket stalled = new java.net.Socket(base.getHost(), base.getPort());
        java.net.Socket silent = new java.net.Socket(base.getHost(), base.getPort())) {
      stalled.setSoTimeout(30_000);
      silent.setSoTimeout(30_000);
      stalled.getOutputStream().write(stalledPost(body.substring(0, 10)));
      silent.getOutputStream().write(stalledPost("")); // its headers only: no byte of the body
      CompletableFuture<HttpResponse<String>> inFlight = f.postHeld("@vorenus #hold");
      Thread.sleep(300); // both stalled requests are routed and wait for their bodies

      long start = System.nanoTime();
      CompletableFuture<Void> draining = CompletableFuture.runAsync(f.server::close);
      for (java.net.Socket socket : List.of(stalled, silent)) {
        String answer =
            new String(
                socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(answer).startsWith("HTTP/1.1 503").contains("shutting down");
      }
      f.release(); // the dispatched turn finishes as before
      assertThat(inFlight.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      draining.get(30, TimeUnit.SECONDS);

      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("the drain waited for no stalled body (the idle time-out is 30 s)")
          .isLessThan(Duration.ofSeconds(10));
      assertThat(log.warningsAndErrors()).isEmpty();
      assertThat(log.text()).doesNotContain("broke off", "malformed");
    }
    List<String> logged = f.app.messageLog().history(10).stream().map(m -> m.text()).toList();
    assertThat(logged).noneMatch(text -> text.contains("never whole")).hasSize(2);
  }

  /** A message whose Content-Length promises 1,000 bytes, with {@code sent} of them. */
  private byte[] stalledPost(String sent) {
    return ("POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + f.operator
            + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            + sent)
        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * Posts {@code body} to {@code path} of a server whose shutdown grace is 1 s, holds its turn at
   * the gate and stops the server: the answer of a turn that outlasted the grace.
   */
  private HttpResponse<String> cutByTheGrace(
      String name, String path, Object body, Map<String, String> headers) throws Exception {
    ServerFixture g =
        new ServerFixture(
            dir.resolve(name), Duration.ofSeconds(5), 4096, Map.of(), Duration.ofSeconds(1));
    try {
      CompletableFuture<HttpResponse<String>> inFlight =
          g.postHeld(path, g.operator, body, headers);
      g.server.close(); // never released: the turn outlasts the 1 s grace
      return inFlight.get(30, TimeUnit.SECONDS);
    } finally {
      g.release();
      g.close();
    }
  }

  @Test
  void aChannelTurnStillRunningWhenTheGraceEndsIsAnswered503NotWithTheNote() throws Exception {
    HttpResponse<String> answered =
        cutByTheGrace(
            "channel-grace",
            "/api/v1/channels/viewer:main/messages",
            Map.of("text", "#hold #stop-when-interrupted"),
            Map.of());

    assertThat(answered.statusCode()).as(answered.body()).isEqualTo(503);
    JsonNode body = ServerFixture.json(answered);
    assertThat(body.get("error").asText())
        .contains("Legio shut down before viewer:main answered")
        .contains("Idempotency-Key")
        .as("sent without a key: there is no same key to send it again under")
        .doesNotContain("the same Idempotency-Key");
    assertThat(body.has("reply")).as("the note is no reply").isFalse();
    assertThat(body.at("/request/id").asText()).isNotEmpty();
  }

  @Test
  void aMessageWhoseEveryTurnTheGraceCutIsAnswered503NotWithTheNotes() throws Exception {
    HttpResponse<String> answered =
        cutByTheGrace(
            "messages-grace",
            "/api/v1/messages",
            Map.of("text", "@vorenus #hold #stop-when-interrupted"),
            Map.of("Idempotency-Key", "cut-1"));

    assertThat(answered.statusCode()).as(answered.body()).isEqualTo(503);
    JsonNode body = ServerFixture.json(answered);
    assertThat(body.get("error").asText())
        .contains("Legio shut down before vorenus answered")
        .contains("with the same Idempotency-Key");
    assertThat(body.has("replies")).as("the note is no reply").isFalse();
    assertThat(body.at("/request/id").asText()).isNotEmpty();
  }

  /** Polls /readyz until it answers 503 (the drain has begun), at most 30 s. */
  private HttpResponse<String> awaitNotReady() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      HttpResponse<String> ready = f.get("/readyz", null);
      if (ready.statusCode() == 503 || System.nanoTime() > deadline) {
        assertThat(ready.statusCode()).isEqualTo(503);
        return ready;
      }
      Thread.sleep(10);
    }
  }
}
