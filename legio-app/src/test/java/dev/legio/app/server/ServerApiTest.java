package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.log.Names;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every endpoint and every error code, through real HTTP against a running server. */
class ServerApiTest {
  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new ServerFixture(dir, Duration.ofMillis(300), 4096);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void healthNeedsNoToken() throws Exception {
    HttpResponse<String> r = f.get("/healthz", null);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(ServerFixture.json(r).get("status").asText()).isEqualTo("ok");
  }

  @Test
  void messageToTwoAgentsIsLoggedOnceAndAnsweredInMentionOrder() throws Exception {
    HttpResponse<String> r =
        f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus @pullo scout the ford"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("Server-Timing"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("engine;dur="));
    JsonNode body = ServerFixture.json(r);
    long request = body.at("/request/sequence").asLong();
    assertThat(body.at("/request/id").asText()).isNotEmpty();
    JsonNode replies = body.get("replies");
    assertThat(replies).hasSize(2);
    assertThat(replies.get(0).get("agent").asText()).isEqualTo("vorenus");
    assertThat(replies.get(1).get("agent").asText()).isEqualTo("pullo");
    for (JsonNode reply : replies) {
      assertThat(reply.get("error").asBoolean()).isFalse();
      assertThat(reply.get("text").asText())
          .contains("received: \"@vorenus @pullo scout the ford\"");
      assertThat(reply.get("sequence").asLong()).isGreaterThan(request);
      assertThat(reply.get("description").asText()).isNotEmpty();
    }
    JsonNode history = ServerFixture.json(f.get("/api/v1/history?limit=10", f.operator));
    JsonNode messages = history.get("messages");
    assertThat(messages).hasSize(3);
    assertThat(messages.get(0).get("sender").asText()).isEqualTo("caesar");
    assertThat(messages.get(0).get("audience"))
        .extracting(JsonNode::asText)
        .containsExactly("vorenus", "pullo");
    assertThat(messages.get(1).get("reply_to").asText()).isEqualTo(body.at("/request/id").asText());
  }

  @Test
  void historyPagesBackWithBeforeSoEveryMessageIsReachable() throws Exception {
    for (int i = 1; i <= 4; i++) {
      f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus report " + i));
    }
    // Eight messages (four requests, four replies); after=2 with limit=2 gives only 7 and 8.
    assertThat(sequences("/api/v1/history?after=2&limit=2")).containsExactly(7L, 8L);
    assertThat(sequences("/api/v1/history?after=2&before=7&limit=2")).containsExactly(5L, 6L);
    assertThat(sequences("/api/v1/history?after=2&before=5&limit=2")).containsExactly(3L, 4L);
    assertThat(sequences("/api/v1/history?after=2&before=3&limit=2")).isEmpty();
    assertThat(sequences("/api/v1/history?before=2")).containsExactly(1L);
    assertThat(sequences("/api/v1/history?viewer=vorenus&before=4&limit=1")).containsExactly(3L);
    assertError(f.get("/api/v1/history?before=0", f.operator), 400, "'before'");
    assertError(f.get("/api/v1/history?before=x", f.operator), 400, "'before'");
  }

  private List<Long> sequences(String path) throws Exception {
    List<Long> out = new ArrayList<>();
    ServerFixture.json(f.get(path, f.operator))
        .get("messages")
        .forEach(m -> out.add(m.get("sequence").asLong()));
    return out;
  }

  @Test
  void usageAddsUpTheTurnsByAgentAsLegioUsageDoes() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus @pullo scout the ford"));
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus and the bridge?"));

    // The ledger is written off the turn's path: wait for the third turn's row.
    HttpResponse<String> r = f.get("/api/v1/usage?since=1h&by=agent", f.operator);
    for (int i = 0; i < 250 && ServerFixture.json(r).at("/total/turns").asLong() < 3; i++) {
      Thread.sleep(20);
      r = f.get("/api/v1/usage?since=1h&by=agent", f.operator);
    }
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode body = ServerFixture.json(r);
    assertThat(body.get("by").asText()).isEqualTo("agent");
    Map<String, Long> turns = new java.util.TreeMap<>();
    long inputTokens = 0;
    for (JsonNode row : body.get("rows")) {
      turns.put(row.get("group").asText(), row.get("turns").asLong());
      inputTokens += row.get("input_tokens").asLong();
      // The offline model costs nothing, and its cost is known.
      assertThat(row.get("cost_usd").decimalValue()).isZero();
      assertThat(row.get("unknown_cost_turns").asLong()).isZero();
    }
    assertThat(turns).containsExactly(Map.entry("pullo", 1L), Map.entry("vorenus", 2L));
    assertThat(body.at("/total/turns").asLong()).isEqualTo(3);
    assertThat(body.at("/total/input_tokens").asLong()).isEqualTo(inputTokens).isPositive();

    assertThat(f.get("/api/v1/usage?by=weekday", f.operator).statusCode()).isEqualTo(400);
    assertThat(
            ServerFixture.json(f.get("/api/v1/usage?since=soon", f.operator)).get("error").asText())
        .contains("'since'", "not an age");
  }

  @Test
  void aSessionIsRewoundAndForkedOverTheApi() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus scout the ford"));
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus and the bridge?"));
    String id = null;
    for (JsonNode s : ServerFixture.json(f.get("/api/v1/sessions", f.operator)).get("sessions")) {
      if (s.get("owner").asText().equals("vorenus")) {
        id = s.get("session_id").asText();
      }
    }
    assertThat(id).isNotNull();

    HttpResponse<String> rewound =
        f.post("/api/v1/sessions/" + id + "/rewind", f.operator, Map.of("last", 1));
    assertThat(rewound.statusCode()).as(rewound.body()).isEqualTo(200);
    JsonNode r = ServerFixture.json(rewound);
    assertThat(r.get("session_id").asText()).isEqualTo(id);
    assertThat(r.get("owner").asText()).isEqualTo("vorenus");
    assertThat(r.get("turns_removed").asInt()).isEqualTo(1);
    assertThat(r.get("entries_removed").asInt()).isPositive();

    HttpResponse<String> forked = f.post("/api/v1/sessions/" + id + "/fork", f.operator, Map.of());
    assertThat(forked.statusCode()).as(forked.body()).isEqualTo(200);
    assertThat(ServerFixture.json(forked).get("session_id").asText()).isNotEqualTo(id);

    // A fork onto an owner without a prompt is refused before anything is written.
    int sessionsBefore =
        ServerFixture.json(f.get("/api/v1/sessions", f.operator)).get("sessions").size();
    for (String owner : List.of("nobody", "caesar")) {
      HttpResponse<String> refused =
          f.post("/api/v1/sessions/" + id + "/fork", f.operator, Map.of("owner", owner));
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
      assertThat(ServerFixture.json(refused).get("error").asText())
          .contains("cannot fork onto '" + owner + "'", "prompt.md");
    }
    JsonNode after = ServerFixture.json(f.get("/api/v1/sessions", f.operator)).get("sessions");
    assertThat(after.size()).isEqualTo(sessionsBefore);
    assertThat(after.findValuesAsText("owner")).doesNotContain("nobody", "caesar");

    String unknown = java.util.UUID.randomUUID().toString();
    assertThat(f.post("/api/v1/sessions/" + unknown + "/rewind", f.operator, Map.of()).statusCode())
        .isEqualTo(404);
    assertThat(f.post("/api/v1/sessions/" + id + "/rewind", f.operator, Map.of("last", 0)))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(400);
    HttpResponse<String> badEntry =
        f.post("/api/v1/sessions/" + id + "/rewind", f.operator, Map.of("to", "<b>nope</b>"));
    assertThat(badEntry.statusCode()).isEqualTo(400);
    assertThat(ServerFixture.json(badEntry).get("error").asText()).contains("'to'", "uuid");
  }

  @Test
  void noMentionGoesToTheLegatus() throws Exception {
    JsonNode body =
        ServerFixture.json(f.post("/api/v1/messages", f.operator, Map.of("text", "report")));
    assertThat(body.at("/replies/0/agent").asText()).isEqualTo(Names.LEGATUS);
  }

  @Test
  void badInputIs400NamingTheFieldAndLogsNothing() throws Exception {
    long before = f.app.messageLog().size();
    HttpResponse<String> unknown =
        f.post("/api/v1/messages", f.operator, Map.of("text", "@nobody hello"));
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(ServerFixture.json(unknown).get("error").asText()).contains("@nobody");
    assertThat(ServerFixture.json(unknown).get("agents"))
        .extracting(JsonNode::asText)
        .containsExactly("legatus", "pullo", "vorenus");

    assertError(
        f.post("/api/v1/messages", f.operator, Map.of("text", "  ")), 400, "'text' is empty");
    assertError(
        f.post("/api/v1/messages", f.operator, Map.of("words", "hi")), 400, "'text' is missing");
    assertError(
        f.post("/api/v1/messages", f.operator, Map.of("text", 42)), 400, "'text' must be a string");
    assertError(
        f.postRaw("/api/v1/messages", f.operator, "application/json", "{\"text\": "),
        400,
        "not valid JSON");
    assertError(
        f.postRaw("/api/v1/messages", f.operator, "application/json", "[1]"), 400, "JSON object");
    assertError(
        f.post(
            "/api/v1/channels/telegram:1/messages",
            f.operator,
            Map.of("text", "hi", "user", "ada")),
        400,
        "'user' must be an object");
    assertError(
        f.post("/api/v1/channels/nochannel/messages", f.operator, Map.of("text", "hi")),
        400,
        "source:id");
    assertError(f.get("/api/v1/history?limit=0", f.operator), 400, "'limit'");
    assertError(f.get("/api/v1/history?limit=abc", f.operator), 400, "'limit'");
    assertError(f.get("/api/v1/history?viewer=Bad%20Name", f.operator), 400, "'viewer'");
    assertError(
        f.get("/api/v1/history?viewer=vorenu", f.operator),
        400,
        "Unknown viewer vorenu. Known names: caesar, legatus,");
    assertError(f.get("/api/v1/sessions/not-a-uuid", f.operator), 400, "not a session id");
    assertThat(f.app.messageLog().size()).isEqualTo(before);
  }

  @Test
  void theLongestMessageIsTakenHoweverItsClientEscapesIt() throws Exception {
    long max = f.app.messageLog().maxTextBytes();
    // Two UTF-8 bytes a character, six as JSON's \u0436 (Python's json.dumps by default).
    String text = "ж".repeat((int) (max / 2) - 10) + " @vorenus";
    StringBuilder escaped = new StringBuilder("{\"text\": \"");
    text.chars().forEach(c -> escaped.append(c < 0x80 ? String.valueOf((char) c) : "\\u0436"));
    escaped.append("\"}");
    HttpResponse<String> r =
        f.postRaw("/api/v1/messages", f.operator, "application/json", escaped.toString());
    assertThat(r.statusCode())
        .as(r.body().substring(0, Math.min(300, r.body().length())))
        .isEqualTo(200);
    assertThat(ServerFixture.json(r).at("/request/id").asText()).isNotEmpty();
  }

  @Test
  void otherStatusCodes() throws Exception {
    assertError(
        f.postRaw("/api/v1/messages", f.operator, "text/plain", "hello"), 415, "application/json");
    assertError(f.postRaw("/api/v1/messages", f.operator, null, "{}"), 415, "application/json");
    long max = f.app.config().server().maxBodyBytes();
    String big = "{\"text\": \"" + "x".repeat((int) max) + "\"}";
    assertError(
        f.postRaw("/api/v1/messages", f.operator, "application/json", big), 413, "max_body_bytes");
    // Without a Content-Length (chunked): cut at the limit all the same.
    HttpResponse<String> chunked =
        f.http.send(
            f.request("/api/v1/messages", f.operator)
                .header("Content-Type", "application/json")
                .POST(
                    java.net.http.HttpRequest.BodyPublishers.ofInputStream(
                        () ->
                            new java.io.ByteArrayInputStream(
                                big.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertError(chunked, 413, "max_body_bytes");
    assertError(f.get("/api/v1/nowhere", f.operator), 404, "no such endpoint");
    HttpResponse<String> wrongMethod = f.get("/api/v1/messages", f.operator);
    assertError(wrongMethod, 405, "POST");
    assertThat(wrongMethod.headers().firstValue("Allow")).hasValue("POST");
    // Jetty's own refusal of an ambiguous path is JSON too.
    HttpResponse<String> ambiguous = f.get("/api/v1/sessions/a%2F..%2Fb", f.operator);
    assertThat(ambiguous.statusCode()).isEqualTo(400);
    assertThat(ServerFixture.json(ambiguous).get("error").asText()).startsWith("Bad Request");
    assertThat(f.app.messageLog().size()).isZero();
  }

  @Test
  void aSessionBusyPastTheWaitIs409() throws Exception {
    CompletableFuture<HttpResponse<String>> first = postAsync("@pullo #hold dig");
    assertThat(f.held.await(30, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<HttpResponse<String>> second = postAsync("@pullo are you there");
    while (f.app.messageLog().size() < 2) {
      Thread.sleep(10); // until the second request is logged and waits for pullo
    }
    Thread.sleep(600); // past [sessions] lock_wait (300 ms here), measured on the real clock
    f.release();
    HttpResponse<String> answered = first.get(30, TimeUnit.SECONDS);
    assertThat(answered.statusCode()).isEqualTo(200);
    HttpResponse<String> busy = second.get(30, TimeUnit.SECONDS);
    assertError(busy, 409, "busy");
    assertThat(ServerFixture.json(busy).at("/request/sequence").asLong()).isPositive();
    assertThat(ServerFixture.json(busy).at("/replies/0/error").asBoolean()).isTrue();
    // The busy reply describes its agent as the answered one does.
    assertThat(ServerFixture.json(busy).at("/replies/0/description").asText())
        .isNotEmpty()
        .isEqualTo(ServerFixture.json(answered).at("/replies/0/description").asText());
  }

  @Test
  void aRewindOrResetDuringATurnWaitsForItAndTheTurnsEndDoesNotUndoIt() throws Exception {
    assertThat(postAsync("@pullo scout").get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    String id = f.app.sessions().find("pullo").orElseThrow().sessionId().toString();
    CompletableFuture<HttpResponse<String>> turn = postAsync("@pullo #hold dig");
    assertThat(f.held.await(30, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<HttpResponse<String>> rewind =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return f.post("/api/v1/sessions/" + id + "/rewind", f.operator, Map.of("last", 1));
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    Thread.sleep(300);
    assertThat(rewind).as("the rewind waits for pullo's turn").isNotDone();
    f.release();

    assertThat(turn.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    HttpResponse<String> rewound = rewind.get(30, TimeUnit.SECONDS);
    assertThat(rewound.statusCode()).as(rewound.body()).isEqualTo(200);
    assertThat(ServerFixture.json(rewound).get("turns_removed").asInt()).isEqualTo(1);
    // The offline model keeps no conversation: the rewind closed the record, and it stays so.
    var record = f.app.sessions().find("pullo").orElseThrow();
    assertThat(record.active()).isFalse();
    assertThat(record.closeReason()).isEqualTo("rewound");
  }

  @Test
  void aResetOrRewindOfASessionBusyPastTheWaitIs409AndChangesNothing() throws Exception {
    assertThat(postAsync("@pullo scout").get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    String id = f.app.sessions().find("pullo").orElseThrow().sessionId().toString();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (f.app.transcripts().list().stream().noneMatch(t -> t.sessionId().equals(id))
        && System.nanoTime() < deadline) {
      Thread.sleep(20); // the transcript is written off the turn's path
    }
    int entries = f.app.transcripts().load(id).entries().size();
    // Another node runs a turn of pullo: it holds pullo's lease.
    assertThat(
            f.app
                .sessions()
                .tryLease(
                    "pullo",
                    "another-node",
                    java.time.Instant.now(),
                    java.time.Duration.ofMinutes(5)))
        .isTrue();

    assertError(
        f.delete("/api/v1/sessions/pullo", f.operator),
        409,
        "pullo's session is busy: a turn or an edit of it, on this Legio node or another,");
    HttpResponse<String> rewind =
        f.post("/api/v1/sessions/" + id + "/rewind", f.operator, Map.of("last", 1));
    assertError(rewind, 409, "nothing was changed. Try again once pullo has answered.");
    assertThat(f.app.sessions().find("pullo").orElseThrow().active()).isTrue();
    assertThat(f.app.transcripts().load(id).entries()).hasSize(entries);
  }

  CompletableFuture<HttpResponse<String>> postAsync(String text) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return f.post("/api/v1/messages", f.operator, Map.of("text", text));
          } catch (Exception e) {
            throw new RuntimeException(e);
          }
        });
  }

  @Test
  void channelTurnsCarryTheSpeakerAndTheRole() throws Exception {
    HttpResponse<String> r =
        f.post(
            "/api/v1/channels/telegram:123/messages",
            f.gateway,
            Map.of("text", "what news?", "user", Map.of("id", "42", "name", "Ada")));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode body = ServerFixture.json(r);
    assertThat(body.get("role").asText()).isEqualTo("chat");
    assertThat(body.get("session_id").asText()).isNotEmpty();
    assertThat(body.at("/reply/text").asText()).contains("[from \"Ada\" (id \"42\")] what news?");
    JsonNode seen = ServerFixture.json(f.get("/api/v1/history?viewer=telegram:123", f.operator));
    assertThat(seen.at("/messages/0/text").asText())
        .isEqualTo("[from \"Ada\" (id \"42\")]\nwhat news?");
    assertThat(seen.at("/messages/1/sequence").asLong())
        .isEqualTo(body.at("/reply/sequence").asLong());
    JsonNode status = ServerFixture.json(f.get("/api/v1/status", f.operator));
    assertThat(status.at("/channels/0/owner").asText()).isEqualTo("telegram:123");
    assertThat(status.at("/channels/0/session_id").asText())
        .isEqualTo(body.get("session_id").asText());
  }

  @Test
  void statusListsTheOpenChannelsAndCountsTheRest() throws Exception {
    // Chats the gateway saw once, hours ago: one still active (its node stopped), one closed.
    f.channelUsed("telegram:1", Duration.ofHours(3), false);
    f.channelUsed("telegram:2", Duration.ofHours(2), true);
    HttpResponse<String> r =
        f.post("/api/v1/channels/telegram:3/messages", f.gateway, Map.of("text", "hello"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

    JsonNode open = ServerFixture.json(f.get("/api/v1/status", f.operator));
    assertThat(open.get("channels"))
        .extracting(c -> c.get("owner").asText())
        .containsExactly("telegram:3");
    assertThat(open.at("/channel_counts/all").asInt()).isEqualTo(3);
    assertThat(open.at("/channel_counts/open").asInt()).isEqualTo(1);
    assertThat(open.at("/channel_counts/listed").asInt()).isEqualTo(1);
    assertThat(open.get("agents")).hasSize(3);
    JsonNode documented =
        OpenApiEndpoint.load()
            .at("/paths/~1api~1v1~1status/get/responses/200/content/application~1json/schema");
    open.fieldNames()
        .forEachRemaining(
            field ->
                assertThat(documented.at("/properties/" + field).isMissingNode())
                    .as(field + " in openapi.json")
                    .isFalse());
    assertThat(documented.at("/properties/channel_counts/properties").size()).isEqualTo(3);

    JsonNode all = ServerFixture.json(f.get("/api/v1/status?channels=all", f.operator));
    assertThat(all.get("channels"))
        .extracting(c -> c.get("owner").asText())
        .containsExactly("telegram:3", "telegram:2", "telegram:1");
    JsonNode two = ServerFixture.json(f.get("/api/v1/status?channels=all&limit=2", f.operator));
    assertThat(two.get("channels")).hasSize(2);
    assertThat(two.at("/channel_counts/listed").asInt()).isEqualTo(2);

    HttpResponse<String> closed = f.get("/api/v1/status?channels=closed", f.operator);
    assertThat(closed.statusCode()).isEqualTo(400);
    assertThat(closed.body()).contains("'channels'").contains("'open'").contains("'all'");
    assertThat(f.get("/api/v1/status?limit=0", f.operator).statusCode()).isEqualTo(400);
    assertThat(f.get("/api/v1/status?limit=10001", f.operator).statusCode()).isEqualTo(400);
  }

  @Test
  void statusSessionsAndReset() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus hello"));
    JsonNode status = ServerFixture.json(f.get("/api/v1/status", f.operator));
    assertThat(status.get("agents"))
        .extracting(a -> a.get("owner").asText())
        .containsExactly("legatus", "pullo", "vorenus");
    JsonNode vorenus = status.get("agents").get(2);
    assertThat(vorenus.get("session").asText()).isEqualTo("active");
    assertThat(vorenus.get("messages").asLong()).isEqualTo(1);
    assertThat(vorenus.get("status").asText()).isEqualTo("idle");
    assertThat(status.get("backend").asText()).contains("offline");
    assertThat(status.get("problems").isArray()).isTrue();

    JsonNode sessions = ServerFixture.json(f.get("/api/v1/sessions", f.operator));
    assertThat(sessions.get("sessions")).hasSize(1);
    String id = sessions.at("/sessions/0/session_id").asText();
    assertThat(sessions.at("/sessions/0/owner").asText()).isEqualTo("vorenus");

    JsonNode session = ServerFixture.json(f.get("/api/v1/sessions/" + id, f.operator));
    for (int i = 0; i < 500 && session.get("total_entries").asInt() < 2; i++) {
      Thread.sleep(20); // the transcript is written off the turn's path
      session = ServerFixture.json(f.get("/api/v1/sessions/" + id, f.operator));
    }
    assertThat(session.get("owner").asText()).isEqualTo("vorenus");
    assertThat(session.at("/record/state").asText()).isEqualTo("active");
    assertThat(session.get("entries"))
        .extracting(e -> e.get("role").asText())
        .containsExactly("user", "assistant");
    assertThat(session.at("/entries/1/text").asText()).contains("vorenus received");
    JsonNode page =
        ServerFixture.json(f.get("/api/v1/sessions/" + id + "?before=1&limit=5", f.operator));
    assertThat(page.get("entries")).hasSize(1);
    assertThat(page.at("/entries/0/index").asInt()).isZero();
    assertThat(page.get("next_before").isNull()).isTrue();
    assertError(
        f.get("/api/v1/sessions/" + java.util.UUID.randomUUID(), f.operator), 404, "no session");
  }

  @Test
  void resetClosesTheSession() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus hello"));
    HttpResponse<String> reset = f.delete("/api/v1/sessions/vorenus", f.operator);
    assertThat(reset.statusCode()).isEqualTo(200);
    assertThat(ServerFixture.json(reset).get("closed").asBoolean()).isTrue();
    assertThat(
            ServerFixture.json(f.delete("/api/v1/sessions/vorenus", f.operator))
                .get("closed")
                .asBoolean())
        .isFalse();
    JsonNode status = ServerFixture.json(f.get("/api/v1/status", f.operator));
    assertThat(status.at("/agents/2/close_reason").asText()).isEqualTo("reset");
    // The reset is a rebuild of vorenus's session, counted by its reason; pullo has none.
    assertThat(status.at("/agents/2/rebuilds_by_reason/reset").asLong()).isEqualTo(1);
    assertThat(status.at("/agents/2/rebuilds").asLong()).isEqualTo(1);
    assertThat(status.at("/agents/1/owner").asText()).isEqualTo("pullo");
    assertThat(status.at("/agents/1/rebuilds_by_reason").isEmpty()).isTrue();
    assertError(
        f.delete("/api/v1/sessions/nobody", f.operator),
        404,
        "no agent named 'nobody'. Known agents: legatus, pullo, vorenus.");
    assertError(f.delete("/api/v1/sessions/Bad!", f.operator), 400, "not an agent");
  }

  @Test
  void memoria() throws Exception {
    HttpResponse<String> published =
        f.post(
            "/api/v1/memoria/edicta/north-road",
            f.operator,
            Map.of("text", "Hold the north road."));
    assertThat(published.statusCode()).as(published.body()).isEqualTo(201);
    assertThat(ServerFixture.json(published).at("/notes/0/author").asText()).isEqualTo("legatus");
    assertError(
        f.post("/api/v1/memoria/edicta/north-road", f.operator, Map.of("text", "again")),
        409,
        "exists");
    assertThat(
            f.post("/api/v1/memoria/acta/ford", f.operator, Map.of("text", "The ford is shallow."))
                .statusCode())
        .isEqualTo(201);
    assertThat(
            f.post("/api/v1/memoria/acta/ford", f.operator, Map.of("text", "Still shallow."))
                .statusCode())
        .isEqualTo(201);
    JsonNode edicta = ServerFixture.json(f.get("/api/v1/memoria/edicta", f.operator));
    assertThat(edicta.get("edicta"))
        .extracting(e -> e.get("name").asText())
        .containsExactly("north-road");
    JsonNode ford = ServerFixture.json(f.get("/api/v1/memoria/acta/ford", f.operator));
    assertThat(ford.get("notes"))
        .extracting(n -> n.get("text").asText())
        .containsExactly("The ford is shallow.", "Still shallow.");
    assertError(f.get("/api/v1/memoria/acta/nothing-here", f.operator), 404, "no actum");
    assertError(f.get("/api/v1/memoria/commentarii", f.operator), 404, "edicta or acta");
    assertError(
        f.post("/api/v1/memoria/acta/ford", f.operator, Map.of("text", "")),
        400,
        "'text' is empty");
  }

  @Test
  void openApiIsServed() throws Exception {
    JsonNode doc = ServerFixture.json(f.get("/api/v1/openapi.json", f.operator));
    assertThat(doc.get("openapi").asText()).isEqualTo("3.1.0");
  }

  @Test
  void anAgeBeyondTheRangeIs400AndOneReachingPast1970CountsEverything() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus scout the ford"));
    for (String age : new String[] {"P106751991167300D", "PT2562047788015215H", "P1000000000D"}) {
      assertError(
          f.get("/api/v1/usage?since=" + age, f.operator),
          400,
          "'" + age + "' is too long an age: at most 999999999 days");
    }
    for (String age : new String[] {"999999999d", "P999999999D", "P30000D"}) {
      HttpResponse<String> r = f.get("/api/v1/usage?since=" + age, f.operator);
      for (int i = 0; i < 250 && ServerFixture.json(r).at("/total/turns").asLong() < 1; i++) {
        Thread.sleep(20); // the ledger is written off the turn's path
        r = f.get("/api/v1/usage?since=" + age, f.operator);
      }
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(ServerFixture.json(r).get("since").asText()).startsWith("1970-01-01T00:00");
      assertThat(ServerFixture.json(r).at("/total/turns").asLong()).isEqualTo(1);
    }
  }

  static void assertError(HttpResponse<String> r, int status, String says) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(ServerFixture.json(r).get("error").asText()).contains(says);
  }

  static List<Long> sequences(JsonNode messages) {
    List<Long> out = new ArrayList<>();
    messages.forEach(m -> out.add(m.get("sequence").asLong()));
    return out;
  }
}
