package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/v1/tasks} and {@code GET /api/v1/tasks/sessions} through real HTTP on SQLite; a
 * session another node takes over meanwhile is {@link TaskTakeoverApiContract}.
 */
class TasksApiTest {
  static final String KEY = "campaign:7f3c/ä";

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

  private HttpResponse<String> task(String token, String key, String agent, String text)
      throws Exception {
    Map<String, Object> body = new HashMap<>();
    body.put("session_key", key);
    body.put("agent", agent);
    body.put("text", text);
    body.put("task_run_id", "run-" + text.length());
    return f.post("/api/v1/tasks", token, body);
  }

  @Test
  void aTaskTokenRunsTasksAndTheSameKeyResumes() throws Exception {
    HttpResponse<String> first = task(f.task, KEY, "vorenus", "scout the ford");
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    JsonNode a = ServerFixture.json(first);
    assertThat(a.get("reply").asText()).contains("scout the ford");
    assertThat(a.get("resumed").asBoolean()).isFalse();
    assertThat(a.get("task_run_id").asText()).isEqualTo("run-14");
    assertThat(a.at("/usage/input_tokens").isIntegralNumber()).isTrue();
    assertThat(a.at("/usage").has("cache_write_tokens")).isTrue();
    assertThat(a.at("/usage/cost_usd").decimalValue()).isZero(); // offline costs nothing

    JsonNode b = ServerFixture.json(task(f.operator, KEY, "vorenus", "and the bridge"));
    assertThat(b.get("resumed").asBoolean()).isTrue();
    assertThat(b.get("session_id").asText()).isEqualTo(a.get("session_id").asText());
    JsonNode other = ServerFixture.json(task(f.task, "campaign:other", "vorenus", "hello"));
    assertThat(other.get("session_id").asText()).isNotEqualTo(a.get("session_id").asText());
    // Nothing of it is in the praetorium.
    assertThat(f.app.messageLog().size()).isZero();

    HttpResponse<String> listed =
        f.get(
            "/api/v1/tasks/sessions?session_key=" + URLEncoder.encode(KEY, StandardCharsets.UTF_8),
            f.task);
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    JsonNode sessions = ServerFixture.json(listed).get("sessions");
    assertThat(sessions).hasSize(1);
    JsonNode s = sessions.get(0);
    assertThat(s.get("session_id").asText()).isEqualTo(a.get("session_id").asText());
    assertThat(s.get("agent").asText()).isEqualTo("vorenus");
    assertThat(s.get("turns").asLong()).isEqualTo(2);
    assertThat(s.get("resumable").asBoolean()).isTrue();
    assertThat(s.get("input_tokens").asLong())
        .isEqualTo(a.at("/usage/input_tokens").asLong() + b.at("/usage/input_tokens").asLong());
  }

  @Test
  void badKeysUnknownAgentsAndMissingFieldsAre400() throws Exception {
    assertError(task(f.task, "", "vorenus", "x"), 400, "session_key is missing");
    assertError(task(f.task, "x".repeat(201), "vorenus", "x"), 400, "at most 200");
    assertError(task(f.task, "a\u0007b", "vorenus", "x"), 400, "not printable");
    HttpResponse<String> unknown = task(f.task, KEY, "brutus", "x");
    assertError(unknown, 400, "no agent named 'brutus'");
    assertThat(ServerFixture.json(unknown).get("agents").toString())
        .contains("\"pullo\"", "\"vorenus\"");
    assertError(
        f.post("/api/v1/tasks", f.task, Map.of("agent", "vorenus", "text", "x")),
        400,
        "'session_key' is missing");
    assertError(
        f.post("/api/v1/tasks", f.task, Map.of("session_key", KEY, "text", "x")),
        400,
        "'agent' is missing");
    assertError(task(f.task, KEY, "vorenus", " "), 400, "'text' is empty");
    assertError(f.get("/api/v1/tasks/sessions", f.task), 400, "'session_key' is missing");
  }

  /**
   * The model answered, then the database refused to store the task's session (a trigger another
   * program added stands for a database that fails): the answer comes with the 503, since its
   * tokens are spent.
   */
  @Test
  void anAnswerWhoseSessionCannotBeStoredIs503WithTheAnswer() throws Exception {
    HttpResponse<String> first = task(f.task, KEY, "vorenus", "hello");
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    Path db = f.root.resolve("castra/praetorium.db");
    try (java.sql.Connection other = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
        java.sql.Statement s = other.createStatement()) {
      s.execute(
          "CREATE TRIGGER refuse_task_sessions BEFORE UPDATE ON task_sessions"
              + " BEGIN SELECT RAISE(ABORT, 'the test refuses task sessions'); END");
    }

    HttpResponse<String> failed = task(f.task, KEY, "vorenus", "and the bridge");

    assertError(failed, 503, "database failed while the session for key");
    JsonNode body = ServerFixture.json(failed);
    assertThat(body.get("reply").asText()).isNotBlank();
    assertThat(body.get("task_run_id").asText()).isEqualTo("run-14");
    assertThat(body.get("error").asText()).contains("use it rather than sending the task again");
  }

  @Test
  void aBackEndsFailureIs502AndItsAnswerMasksWhatTheLogMasks() throws Exception {
    dev.legio.secrets.SecretRedactor.register("registered-7f3c9e1d");
    HttpResponse<String> failed =
        task(
            f.task,
            KEY,
            "vorenus",
            "#fail via https://user:URLSECRETpw@host/v1 with registered-7f3c9e1d, password=hunter22");
    assertError(failed, 502, "the model failed on");
    assertThat(failed.body())
        .contains("https://***@host/v1", "with ***", "password=***")
        .doesNotContain("URLSECRETpw")
        .doesNotContain("registered-7f3c9e1d")
        .doesNotContain("hunter22");
  }

  @Test
  void aGatewayTokenMayNotRunTasksAndATaskTokenNothingElse() throws Exception {
    assertError(task(f.gateway, KEY, "vorenus", "x"), 403, "role gateway");
    assertError(f.get("/api/v1/tasks/sessions?session_key=k", f.gateway), 403, "role gateway");
    assertError(f.get("/api/v1/status", f.task), 403, "/api/v1/tasks");
  }

  private HttpResponse<String> sessions(String token, String key) throws Exception {
    return f.get(
        "/api/v1/tasks/sessions?session_key=" + URLEncoder.encode(key, StandardCharsets.UTF_8),
        token);
  }

  @Test
  void aTaskTokenWithKeyPrefixesReachesOnlyTheKeysStartingWithThem() throws Exception {
    // Another tenant's session, made with the unscoped task token (which keeps every key).
    assertThat(task(f.task, "tenant-b:42", "vorenus", "their secret plan").statusCode())
        .isEqualTo(200);
    String scoped =
        new ApiTokens(f.app.workspace().castra())
            .create("campaigns", Role.TASK, List.of(), List.of("campaign:", "ticket:"))
            .secret();

    HttpResponse<String> mine = task(scoped, "campaign:7f3c", "vorenus", "scout the ford");
    assertThat(mine.statusCode()).as(mine.body()).isEqualTo(200);
    assertThat(task(scoped, "ticket:9", "pullo", "dig in").statusCode()).isEqualTo(200);

    for (String key : List.of("tenant-b:42", "Campaign:7f3c", "campaign", " campaign:7f3c")) {
      HttpResponse<String> refused = task(scoped, key, "vorenus", "show me the plan");
      assertError(refused, 403, "reaches only the session keys starting with 'campaign:' or");
      assertThat(ServerFixture.json(refused).get("key_prefixes").toString())
          .isEqualTo("[\"campaign:\",\"ticket:\"]");
      // Refused even when the rest of the body is wrong: nothing is told of agents or texts.
      assertThat(task(scoped, key, "brutus", " ").statusCode()).isEqualTo(403);
    }
    // Listing: a key within the prefixes lists its sessions; another key is refused, not empty.
    JsonNode listed = ServerFixture.json(sessions(scoped, "campaign:7f3c"));
    assertThat(listed.get("sessions")).hasSize(1);
    HttpResponse<String> theirs = sessions(scoped, "tenant-b:42");
    assertError(theirs, 403, "'tenant-b:42' starts with none of them");
    assertThat(theirs.body()).doesNotContain("their secret plan");
    assertThat(ServerFixture.json(theirs).get("key_prefixes")).hasSize(2);
    assertError(sessions(scoped, "never-used:1"), 403, "starts with none of them");

    // The refused tasks ran nothing: the other tenant's session has its one turn only.
    JsonNode b = ServerFixture.json(sessions(f.task, "tenant-b:42")).get("sessions");
    assertThat(b).hasSize(1);
    assertThat(b.get(0).get("turns").asLong()).isEqualTo(1);
    // An operator reaches every key.
    assertThat(sessions(f.operator, "tenant-b:42").statusCode()).isEqualTo(200);
  }

  @Test
  void aSessionBusyPastTheWaitIs409() throws Exception {
    CompletableFuture<HttpResponse<String>> holding =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return task(f.task, KEY, "vorenus", "#hold this");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(f.held.await(30, TimeUnit.SECONDS)).isTrue();

    assertError(task(f.task, KEY, "vorenus", "next"), 409, "busy");
    // Another key is not held up.
    assertThat(task(f.task, "campaign:free", "vorenus", "go").statusCode()).isEqualTo(200);

    f.release();
    assertThat(holding.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
  }
}
