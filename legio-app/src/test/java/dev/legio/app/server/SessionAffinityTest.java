package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.LegioApp;
import dev.legio.session.SessionStore;
import dev.legio.testing.LogCapture;
import dev.legio.testing.PostgresTestDatabase;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two named nodes on one PostgreSQL database, whose back-end keeps its conversations on the node's
 * own disk (the Claude CLI's case): a turn that arrives at the other node is run by the node that
 * holds the session, while that node lives; then by the node it arrived at. The offline model tells
 * which: a session continued says "Turn 2 of this session", a session rebuilt on another node says
 * "Turn 1" and "context restored from the praetorium". And a node alone (on SQLite) reads no
 * session's home for a turn.
 */
class SessionAffinityTest {
  @TempDir Path dir;

  @Test
  void aTurnGoesToTheNodeThatHoldsItsSessionWhileThatNodeLives() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      Files.createDirectories(dir.resolve("a"));
      Files.createDirectories(dir.resolve("b"));
      ServerFixture a = node(database, "a");
      boolean aClosed = false;
      try (ServerFixture b = node(database, "b")) {
        // One set of tokens for the cluster (a shared castra in production).
        Files.copy(
            a.root.resolve("castra/server/tokens.json"),
            b.root.resolve("castra/server/tokens.json"),
            StandardCopyOption.REPLACE_EXISTING);
        String token = a.operator;

        assertThat(reply(a.post("/api/v1/messages", token, Map.of("text", "@vorenus first"))))
            .contains("Turn 1 of this session");
        // At b, the turn runs on a, where vorenus's conversation is.
        assertThat(reply(b.post("/api/v1/messages", token, Map.of("text", "@vorenus second"))))
            .contains("Turn 2 of this session");
        // A stream of events comes through as a stream.
        HttpResponse<String> streamed =
            b.http.send(
                b.request("/api/v1/messages", token)
                    .header("Content-Type", "application/json")
                    .header("Accept", "text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"@vorenus third\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(streamed.headers().firstValue("Content-Type").orElse(""))
            .startsWith("text/event-stream");
        assertThat(streamed.body()).contains("event: reply").contains("Turn 3 of this session");

        // Channel sessions and task sessions alike.
        assertThat(
                a.post("/api/v1/channels/telegram:42/messages", a.gateway, Map.of("text", "hello"))
                    .body())
            .contains("Turn 1 of this session");
        assertThat(
                b.post("/api/v1/channels/telegram:42/messages", a.gateway, Map.of("text", "again"))
                    .body())
            .contains("Turn 2 of this session");
        Map<String, String> task =
            Map.of("session_key", "campaign:7f3c", "agent", "pullo", "text", "draft");
        assertThat(ServerFixture.json(a.post("/api/v1/tasks", a.task, task)).get("reply").asText())
            .contains("Turn 1 of this session");
        assertThat(ServerFixture.json(b.post("/api/v1/tasks", a.task, task)).get("reply").asText())
            .contains("Turn 2 of this session");
        // A task is answered in JSON only, wherever it runs: one that takes no JSON is refused at
        // b, neither sent on to a nor run.
        int turnsOnA = a.turnThreads.size();
        int turnsOnB = b.turnThreads.size();
        ServerApiTest.assertError(
            b.post("/api/v1/tasks", a.task, task, Map.of("Accept", "text/event-stream")),
            406,
            "POST /api/v1/tasks answers application/json");
        assertThat(a.turnThreads).hasSize(turnsOnA);
        assertThat(b.turnThreads).hasSize(turnsOnB);
        assertThat(a.app.store().tasks().find("campaign:7f3c", "pullo").orElseThrow().turns())
            .isEqualTo(2);

        // A request another node sent is never sent on: b runs it (and now holds the session).
        HttpResponse<String> forwarded =
            b.http.send(
                b.request("/api/v1/messages", token)
                    .header("Content-Type", "application/json")
                    .header(SessionAffinity.FORWARDED_HEADER, "node-x")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"@pullo here\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(reply(forwarded)).contains("Turn 1 of this session");

        // a stops (and leaves the directory): b runs vorenus's next turn itself, rebuilt from the
        // log.
        URI aUrl = a.server.url();
        a.close();
        aClosed = true;
        String after = reply(b.post("/api/v1/messages", token, Map.of("text", "@vorenus fourth")));
        assertThat(after)
            .contains("Turn 1 of this session")
            .contains("context restored from the praetorium");

        // Had a been killed, its row would stay until the lease time ran out: b tries a's
        // address, is refused, and runs the channel's turn itself.
        b.app.store().nodes().announce("node-a", aUrl, Instant.now());
        Thread.sleep(OtherLiveNodes.MAX_AGE.toMillis() + 100); // b's reading of the nodes ages
        HttpResponse<String> channel =
            b.post("/api/v1/channels/telegram:42/messages", a.gateway, Map.of("text", "still?"));
        assertThat(channel.statusCode()).as(channel.body()).isEqualTo(200);
        assertThat(channel.body())
            .contains("Turn 1 of this session")
            .contains("context restored from the praetorium");

        // A node that takes the request and dies before it answers may have run it: b does not
        // run it again, and says so. (pullo's task session is still at home on a.)
        try (java.net.ServerSocket dying =
            new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
          Thread peer = Thread.ofVirtual().start(() -> takeTheRequestAndDie(dying));
          nodeAIsNowAt(b, dying);
          HttpResponse<String> died = b.post("/api/v1/tasks", a.task, task);
          peer.join(10_000);
          assertThat(died.statusCode()).as(died.body()).isEqualTo(502);
          assertThat(ServerFixture.json(died).get("error").asText())
              .contains("took the request and stopped before it answered")
              .contains("may have run the task")
              .contains("GET /api/v1/tasks/sessions");
        }
        // A node that takes the request and stops (SIGSTOP, a frozen VM) holds no one for ever:
        // past the relay's time b answers 504, and does not run the task either.
        try (java.net.ServerSocket stopped =
            new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
          Thread peer = Thread.ofVirtual().start(() -> takeTheRequestAndStop(stopped, null));
          nodeAIsNowAt(b, stopped);
          HttpResponse<String> silent = b.post("/api/v1/tasks", a.task, task);
          peer.interrupt();
          assertThat(silent.statusCode()).as(silent.body()).isEqualTo(504);
          assertThat(ServerFixture.json(silent).get("error").asText())
              .contains("gave no answer within " + ServerFixture.RELAY_ANSWER_WITHIN.toSeconds())
              .contains("may be stopped or stalled")
              .contains("GET /api/v1/tasks/sessions");
        }
        // One that stops half way through its answer (a JSON body sent in chunks): b ends the
        // relayed answer at that time rather than at the caller's own time-out (60 s).
        try (java.net.ServerSocket stalled =
            new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
          String half = "{\"reply\": \"the first half of";
          String head =
              "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                  + "Transfer-Encoding: chunked\r\n\r\n"
                  + Integer.toHexString(half.length())
                  + "\r\n"
                  + half
                  + "\r\n";
          Thread peer = Thread.ofVirtual().start(() -> takeTheRequestAndStop(stalled, head));
          nodeAIsNowAt(b, stalled);
          long start = System.nanoTime();
          assertThatThrownBy(
                  () ->
                      b.http.send(
                          b.request("/api/v1/tasks", a.task)
                              .header("Content-Type", "application/json")
                              .header("Accept", "application/json")
                              .POST(
                                  HttpRequest.BodyPublishers.ofString(
                                      ServerFixture.JSON.writeValueAsString(task)))
                              .build(),
                          HttpResponse.BodyHandlers.ofString()))
              .isInstanceOf(java.io.IOException.class)
              .isNotInstanceOf(java.net.http.HttpTimeoutException.class);
          assertThat(Duration.ofNanos(System.nanoTime() - start))
              .isLessThan(Duration.ofSeconds(30));
          peer.interrupt();
        }
        // Refused now (nothing listens): b runs the task; it had not run the one before.
        HttpResponse<String> ran = b.post("/api/v1/tasks", a.task, task);
        assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);
        assertThat(ServerFixture.json(ran).get("reply").asText())
            .contains("Turn 1 of this session");
      } finally {
        if (!aClosed) {
          a.close();
        }
      }
    }
  }

  /**
   * Accepts one connection, reads the request's head, writes {@code start} of an answer (null:
   * nothing), and then neither answers nor closes until interrupted: a node that stopped.
   */
  private static void takeTheRequestAndStop(java.net.ServerSocket server, String start) {
    try (java.net.Socket s = server.accept()) {
      if (!readTheHead(s.getInputStream())) {
        return;
      }
      if (start != null) {
        s.getOutputStream().write(start.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        s.getOutputStream().flush();
      }
      Thread.sleep(60_000);
    } catch (java.io.IOException | InterruptedException e) {
      // the test sees what b answered
    }
  }

  /** Makes b see node-a at {@code peer}'s address (once b's reading of the nodes has aged). */
  private static void nodeAIsNowAt(ServerFixture b, java.net.ServerSocket peer) throws Exception {
    b.app
        .store()
        .nodes()
        .announce("node-a", URI.create("http://127.0.0.1:" + peer.getLocalPort()), Instant.now());
    Thread.sleep(OtherLiveNodes.MAX_AGE.toMillis() + 100);
  }

  /** Accepts one connection, reads the request's head, and closes it without an answer. */
  private static void takeTheRequestAndDie(java.net.ServerSocket server) {
    try (java.net.Socket s = server.accept()) {
      readTheHead(s.getInputStream());
    } catch (java.io.IOException e) {
      // the test sees what b answered
    }
  }

  /** Reads up to the blank line that ends a request's head; false when the stream ended first. */
  private static boolean readTheHead(java.io.InputStream in) throws java.io.IOException {
    byte[] end = "\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    int matched = 0;
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        return false;
      }
      matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
    }
    return true;
  }

  @Test
  void aMalformedTaskKeyIsRefusedBeforeAnyNodesDatabaseIsAsked() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      Files.createDirectories(dir.resolve("a"));
      Files.createDirectories(dir.resolve("b"));
      try (ServerFixture a = node(database, "a");
          ServerFixture b = node(database, "b")) {
        Map<String, String> task =
            Map.of("session_key", "campaign:7f3c", "agent", "pullo", "text", "draft");
        assertThat(ServerFixture.json(a.post("/api/v1/tasks", a.task, task)).get("reply").asText())
            .contains("Turn 1 of this session");
        try (LogCapture log = new LogCapture()) {
          // At b, where a is live: the key is refused before anything asks who holds it.
          ServerApiTest.assertError(
              b.post(
                  "/api/v1/tasks",
                  b.task,
                  Map.of("session_key", "a\u0000b", "agent", "pullo", "text", "draft")),
              400,
              "not printable (U+0000 at position 2)");
          assertThat(log.warningsAndErrors()).isEmpty();
        }
      }
    }
  }

  @Test
  void aTaskOutsideItsTokensKeyPrefixesIsRefusedWhereItArrivesNeverSentOn() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      Files.createDirectories(dir.resolve("a"));
      Files.createDirectories(dir.resolve("b"));
      try (ServerFixture a = node(database, "a");
          ServerFixture b = node(database, "b")) {
        Map<String, String> theirs =
            Map.of("session_key", "tenant-b:1", "agent", "pullo", "text", "their plan");
        assertThat(
                ServerFixture.json(a.post("/api/v1/tasks", a.task, theirs)).get("reply").asText())
            .contains("Turn 1 of this session");
        // A token only b knows: were the task sent on to a, where its session lives, a would
        // answer 401 for a token it has never seen.
        String scoped =
            new ApiTokens(b.app.workspace().castra())
                .create("campaigns", Role.TASK, java.util.List.of(), java.util.List.of("campaign:"))
                .secret();
        HttpResponse<String> refused = b.post("/api/v1/tasks", scoped, theirs);
        ServerApiTest.assertError(refused, 403, "starts with none of them");
        assertThat(ServerFixture.json(refused).get("key_prefixes").toString())
            .isEqualTo("[\"campaign:\"]");
        HttpResponse<String> own =
            b.post(
                "/api/v1/tasks",
                scoped,
                Map.of("session_key", "campaign:1", "agent", "pullo", "text", "ours"));
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
      }
    }
  }

  @Test
  void aChannelPostOutsideItsTokensSourcesIsRefusedWhereItArrivesNeverSentOn() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      Files.createDirectories(dir.resolve("a"));
      Files.createDirectories(dir.resolve("b"));
      try (ServerFixture a = node(database, "a");
          ServerFixture b = node(database, "b")) {
        assertThat(
                a.post("/api/v1/channels/telegram:42/messages", a.gateway, Map.of("text", "hi"))
                    .body())
            .contains("Turn 1 of this session");
        // A token only b knows: were the post sent on to a, where the channel's session lives, a
        // would answer 401 for a token it has never seen.
        String slackOnly =
            new ApiTokens(b.app.workspace().castra())
                .create("slack-bot", Role.GATEWAY, java.util.List.of("slack"))
                .secret();
        HttpResponse<String> refused =
            b.post("/api/v1/channels/telegram:42/messages", slackOnly, Map.of("text", "theirs"));
        ServerApiTest.assertError(refused, 403, "may not post to source 'telegram'");
      }
    }
  }

  @Test
  void aNodeAloneReadsNoSessionsHomeUntilAnotherNodeIsLive() throws Exception {
    Path root = dir.resolve("alone");
    Workspace workspace = new Workspace(root);
    WorkspaceInitializer.initialise(workspace);
    try (LegioApp app = LegioApp.open(workspace, Map.of(), Clock.systemUTC())) {
      AtomicInteger homesRead = new AtomicInteger();
      SessionStore real = app.sessions();
      SessionStore counting =
          (SessionStore)
              Proxy.newProxyInstance(
                  getClass().getClassLoader(),
                  new Class<?>[] {SessionStore.class},
                  (proxy, method, args) -> {
                    if (method.getName().equals("conversationHome")) {
                      homesRead.incrementAndGet();
                    }
                    try {
                      return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                      throw e.getCause();
                    }
                  });
      URI self = URI.create("http://127.0.0.1:8741");
      app.store().nodes().announce("node-a", self, Instant.now());
      SessionAffinity affinity =
          new SessionAffinity(
              app.store().nodes(),
              counting,
              app.tasks(),
              "node-a",
              Duration.ofSeconds(30),
              Clock.systemUTC(),
              SessionAffinity.NODE_LOCAL_BACKENDS);
      affinity.serving(self);

      for (int turn = 0; turn < 100; turn++) {
        assertThat(affinity.peerFor("vorenus")).isEmpty();
      }
      assertThat(homesRead).hasValue(0);

      // Another node comes up: once this node's reading of the nodes has aged, it looks.
      app.store().nodes().announce("node-b", URI.create("http://127.0.0.1:8742"), Instant.now());
      Thread.sleep(OtherLiveNodes.MAX_AGE.toMillis() + 100);
      assertThat(affinity.peerFor("vorenus")).isEmpty(); // no session yet: runs here
      assertThat(homesRead).hasValue(1);
    }
  }

  private ServerFixture node(PostgresTestDatabase database, String name) throws Exception {
    return new ServerFixture(
        dir.resolve(name),
        Duration.ofSeconds(5),
        4096,
        Map.of("LEGIO_DB_URL", database.url(), "LEGIO_NODE_NAME", "node-" + name));
  }

  private static String reply(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode body = ServerFixture.json(response);
    return body.at("/replies/0/text").asText();
  }
}
