package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.backend.Usage;
import dev.legio.session.CompletedTurn;
import dev.legio.session.SessionRecord;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.TranscriptRecorder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/sessions} in pages over real HTTP: every session once, newest first, whatever
 * is added between two pages; bad paging parameters named in a 400.
 */
class SessionsPagingApiTest {
  static final Instant LONG_AGO = Instant.parse("2024-05-01T12:00:00Z");

  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new ServerFixture(dir, Duration.ofSeconds(5), LegioServer.DEFAULT_EVENT_BUFFER);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void pagesListEveryCurrentAndEndedSessionOnceNewestFirst() throws Exception {
    Set<String> all = new HashSet<>();
    all.add(currentSession("vorenus"));
    all.add(currentSession("pullo"));
    for (int i = 0; i < 23; i++) {
      // Three sessions start at each instant: the id orders them.
      all.add(transcript(f, "vorenus", LONG_AGO.minusSeconds(60L * (i / 3))));
    }

    List<JsonNode> read = readAll(7);

    assertThat(read).extracting(s -> s.get("session_id").asText()).doesNotHaveDuplicates();
    assertThat(read).extracting(s -> s.get("session_id").asText()).hasSameElementsAs(all);
    for (int i = 1; i < read.size(); i++) {
      assertThat(key(read.get(i))).as("newest first").isLessThan(key(read.get(i - 1)));
    }
    // The two current sessions are the newest; their records are shown as records.
    assertThat(read.subList(0, 2)).extracting(s -> s.get("state").asText()).containsOnly("active");
    assertThat(read.get(2).get("state").asText()).isEqualTo("ended");

    // Without parameters: the first page of 100 (all of them here), as callers had it.
    JsonNode first = ServerFixture.json(f.get("/api/v1/sessions", f.operator));
    assertThat(first.get("sessions")).hasSize(all.size());
    assertThat(first.get("next_cursor").isNull()).isTrue();
  }

  @Test
  void aSessionAddedOrEndedBetweenPagesNeitherRepeatsNorSkipsOne() throws Exception {
    String pullo = currentSession("pullo");
    // pullo's session started among the older ones: a later page holds it.
    Path file = store(f).file(pullo);
    Files.writeString(
        file,
        Files.readString(file)
            .replaceAll(
                "\"timestamp\":\"[^\"]+\"",
                "\"timestamp\":\"" + LONG_AGO.minusSeconds(330) + "\""));
    Set<String> before = new HashSet<>(Set.of(pullo));
    for (int i = 0; i < 20; i++) {
      before.add(transcript(f, "vorenus", LONG_AGO.minusSeconds(30L * i)));
    }

    JsonNode page = page(5, null);
    List<String> seen = new ArrayList<>(ids(page));
    // Meanwhile: a new session of vorenus, one more transcript, and pullo's session ends (a reset,
    // then a new one in its place).
    String vorenus = currentSession("vorenus");
    String added = transcript(f, "vorenus", Instant.now());
    assertThat(f.delete("/api/v1/sessions/pullo", f.operator).statusCode()).isEqualTo(200);
    String newPullo = currentSession("pullo");
    assertThat(newPullo).isNotEqualTo(pullo);
    while (!page.get("next_cursor").isNull()) {
      page = page(5, page.get("next_cursor").asText());
      seen.addAll(ids(page));
    }

    assertThat(seen).doesNotHaveDuplicates().hasSameElementsAs(before);
    assertThat(seen).doesNotContain(vorenus, added, newPullo);
    // Read again from the first page: the new sessions come first, pullo's old one has ended.
    List<JsonNode> again = readAll(1_000);
    assertThat(again.subList(0, 3))
        .extracting(s -> s.get("session_id").asText())
        .containsExactlyInAnyOrder(vorenus, added, newPullo);
    assertThat(again)
        .filteredOn(s -> s.get("session_id").asText().equals(pullo))
        .singleElement()
        .satisfies(s -> assertThat(s.get("state").asText()).isEqualTo("ended"));
  }

  @Test
  void aCurrentSessionWhoseFirstTurnIsWrittenBetweenPagesIsListedOnceInItsPlace() throws Exception {
    Set<String> all = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      all.add(transcript(f, "vorenus", LONG_AGO.minusSeconds(30L * i)));
    }
    // pullo's current session was created among the older ones and has no transcript yet: its
    // first turn is still running.
    SessionRecord pullo =
        new SessionRecord(
            "pullo",
            UUID.randomUUID(),
            "offline",
            null,
            "prompt",
            null,
            0,
            0,
            0,
            0,
            LONG_AGO.minusSeconds(305),
            LONG_AGO.minusSeconds(305),
            Instant.now().plus(Duration.ofDays(1)),
            SessionRecord.State.ACTIVE,
            null,
            0);
    f.app.sessions().save(pullo);
    String id = pullo.sessionId().toString();
    all.add(id);

    JsonNode page = page(5, null);
    List<String> seen = new ArrayList<>(ids(page));
    assertThat(seen).doesNotContain(id);
    // Meanwhile its first turn ends and is written, now, as the engine writes it.
    new TranscriptRecorder(f.app.transcripts())
        .turnCompleted(
            CompletedTurn.builder("pullo", pullo.sessionId())
                .fresh(true)
                .sent("hello")
                .reply("hi")
                .usage(Usage.NONE)
                .at(Instant.now())
                .backendKind("offline")
                .sessionCreated(pullo.createdAt())
                .build());
    assertThat(store(f).file(id)).exists();
    while (!page.get("next_cursor").isNull()) {
      page = page(5, page.get("next_cursor").asText());
      seen.addAll(ids(page));
    }

    assertThat(seen).doesNotHaveDuplicates().hasSameElementsAs(all);
    // Its place is its record's creation, before the turn was written and after it ended.
    List<JsonNode> again = readAll(1_000);
    assertThat(again)
        .filteredOn(s -> s.get("session_id").asText().equals(id))
        .singleElement()
        .satisfies(
            s -> assertThat(s.get("started_at").asText()).isEqualTo(pullo.createdAt().toString()));
    // It ends: its record goes, its transcript stays.
    f.app.sessions().delete("pullo");
    assertThat(readAll(1_000))
        .filteredOn(s -> s.get("session_id").asText().equals(id))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.get("state").asText()).isEqualTo("ended");
              assertThat(s.get("started_at").asText()).isEqualTo(pullo.createdAt().toString());
            });
  }

  @Test
  void aSessionTheEngineBeginsStartsAtItsRecordsCreation() throws Exception {
    String id = currentSession("vorenus");
    SessionRecord record = f.app.sessions().find("vorenus").orElseThrow();

    JsonNode listed = readAll(1_000).getFirst();

    assertThat(listed.get("session_id").asText()).isEqualTo(id);
    assertThat(Instant.parse(listed.get("started_at").asText())).isEqualTo(record.createdAt());
    assertThat(store(f).starts().sessions())
        .singleElement()
        .satisfies(s -> assertThat(s.started()).isEqualTo(record.createdAt()));
  }

  @Test
  void aBadLimitOrCursorIs400NamingTheParameterAndWhatToSend() throws Exception {
    transcript(f, "vorenus", LONG_AGO);
    for (String limit : List.of("0", "1001", "ten", "-1", "1.5")) {
      assertError(
          f.get("/api/v1/sessions?limit=" + limit, f.operator),
          400,
          "query parameter 'limit' must be a whole number from 1 to 1000");
    }
    String notGiven =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString("yesterday.0.abc".getBytes(StandardCharsets.UTF_8));
    String badId =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString("5.0.../etc".getBytes(StandardCharsets.UTF_8));
    for (String cursor : List.of("!!!", "abc", notGiven, badId, "MTIz")) {
      HttpResponse<String> r = f.get("/api/v1/sessions?cursor=" + cursor, f.operator);
      assertError(r, 400, "query parameter 'cursor' is not a cursor GET /api/v1/sessions gave");
      assertError(r, 400, "send the next_cursor of the page before unchanged");
    }
    assertError(
        f.get("/api/v1/sessions?limit=1&limit=2", f.operator), 400, "query parameter 'limit'");
  }

  /** Follows next_cursor from the first page to the last, {@code limit} at a time. */
  private List<JsonNode> readAll(int limit) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonNode page = page(limit, cursor);
      assertThat(page.get("sessions").size()).isLessThanOrEqualTo(limit);
      page.get("sessions").forEach(out::add);
      cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asText();
      if (pages++ > 0) {
        assertThat(page.get("damaged_sessions")).as("named on the first page only").isEmpty();
      }
    } while (cursor != null);
    return out;
  }

  private JsonNode page(int limit, String cursor) throws Exception {
    HttpResponse<String> r =
        f.get(
            "/api/v1/sessions?limit=" + limit + (cursor == null ? "" : "&cursor=" + cursor),
            f.operator);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return ServerFixture.json(r);
  }

  private static List<String> ids(JsonNode page) {
    List<String> out = new ArrayList<>();
    page.get("sessions").forEach(s -> out.add(s.get("session_id").asText()));
    return out;
  }

  /** What the listing orders by: start, then session id. */
  private static String key(JsonNode s) {
    return Instant.parse(s.get("started_at").asText()).toEpochMilli()
        + " "
        + s.get("session_id").asText();
  }

  /** Sends {@code owner} a message; its current session's id once its transcript is written. */
  private String currentSession(String owner) throws Exception {
    HttpResponse<String> r =
        f.post("/api/v1/messages", f.operator, Map.of("text", "@" + owner + " hello"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String id = f.app.sessions().find(owner).orElseThrow().sessionId().toString();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!Files.exists(store(f).file(id)) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(store(f).file(id)).exists();
    return id;
  }

  static FileTranscriptStore store(ServerFixture f) {
    return (FileTranscriptStore) f.app.transcripts();
  }

  /**
   * A transcript of an ended session of {@code owner} that started at {@code started}, as Legio
   * writes one (its agent-name line, then a user line); returns its session id.
   */
  static String transcript(ServerFixture f, String owner, Instant started) throws Exception {
    String id = UUID.randomUUID().toString();
    Path file = store(f).file(id);
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        "{\"type\":\"agent-name\",\"agentName\":\""
            + owner
            + "\",\"sessionId\":\""
            + id
            + "\"}\n"
            + "{\"type\":\"user\",\"uuid\":\""
            + UUID.randomUUID()
            + "\",\"parentUuid\":null,\"isSidechain\":false,\"userType\":\"external\","
            + "\"cwd\":\"/legion\",\"sessionId\":\""
            + id
            + "\",\"version\":\"legio\",\"timestamp\":\""
            + started
            + "\",\"message\":{\"role\":\"user\",\"content\":\"hello\"}}\n");
    return id;
  }
}
