package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API's JSON-only endpoints weigh {@code Accept} as {@code /events} does, over real HTTP: one
 * that does not take JSON is 406 naming it and nothing is done; no {@code Accept}, wildcards and
 * JSON with parameters are answered as before; health checks and metrics answer whatever is sent.
 */
class JsonOnlyAcceptApiTest {
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

  private HttpResponse<String> get(String path, String token, String accept) throws Exception {
    HttpRequest.Builder b = f.request(path, token);
    if (accept != null) {
      b.header("Accept", accept);
    }
    return f.http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void anAcceptThatTakesNoJsonIs406NamingItAndNothingIsDone() throws Exception {
    for (String refused :
        List.of("text/html", "application/json;q=0", "*/*, application/json;q=0")) {
      assertError(
          get("/api/v1/sessions", f.operator, refused),
          406,
          "GET /api/v1/sessions answers application/json, which the Accept header");
    }
    HttpResponse<String> publish =
        f.post(
            "/api/v1/memoria/edicta/north-road",
            f.operator,
            Map.of("text", "Hold the north road."),
            Map.of("Accept", "text/html"));
    assertError(publish, 406, "send Accept: application/json (or */*, or no Accept)");
    assertThat(f.get("/api/v1/memoria/edicta", f.operator).body()).doesNotContain("north-road");
    // A route another node may answer (PeerRelay) answers JSON only too: refused on arrival.
    HttpResponse<String> channel =
        f.post(
            "/api/v1/channels/telegram:42/messages",
            f.gateway,
            Map.of("text", "hello from the channel"),
            Map.of("Accept", "text/html"));
    assertError(
        channel,
        406,
        "POST /api/v1/channels/telegram:42/messages answers application/json, which the Accept"
            + " header");
    assertThat(f.get("/api/v1/history", f.operator).body()).doesNotContain("hello from the");
    // A task is never streamed: one that takes no JSON, a stream's type included, is refused on
    // arrival, before its lease is taken or its turn runs.
    for (String refused : List.of("text/html", "text/event-stream")) {
      HttpResponse<String> task =
          f.post(
              "/api/v1/tasks",
              f.task,
              Map.of("session_key", "campaign:7f3c", "agent", "vorenus", "text", "scout the ford"),
              Map.of("Accept", refused));
      assertError(task, 406, "POST /api/v1/tasks answers application/json, which the Accept");
    }
    assertThat(f.turnThreads).isEmpty(); // the back-end was sent no turn
    assertThat(f.app.store().tasks().find("campaign:7f3c", "vorenus")).isEmpty();
    assertThat(f.app.sessions().leasedOwners(java.time.Instant.now())).isEmpty();
    assertThat(f.app.usage().entries(java.time.Instant.EPOCH, 10)).isEmpty();
    // A token is checked first: no token is 401 whatever the Accept.
    assertThat(get("/api/v1/status", null, "text/html").statusCode()).isEqualTo(401);
  }

  @Test
  void noAcceptWildcardsAndJsonWithParametersAreAnsweredAsBefore() throws Exception {
    for (String taken :
        new String[] {
          null, "*/*", "application/*", "application/json;charset=utf-8", "text/html, */*;q=0.1"
        }) {
      HttpResponse<String> r = get("/api/v1/sessions", f.operator, taken);
      assertThat(r.statusCode()).as(taken + ": " + r.body()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type").orElseThrow())
          .startsWith("application/json");
    }
    // The endpoints that choose their type themselves, and those of load balancers and scrapers.
    assertThat(get("/healthz", null, "text/html").statusCode()).isEqualTo(200);
    assertThat(get("/readyz", null, "text/html").statusCode()).isEqualTo(200);
    assertThat(get("/metrics", f.scraper, "text/html").statusCode()).isEqualTo(200);
    HttpResponse<String> sent =
        f.post(
            "/api/v1/messages",
            f.operator,
            Map.of("text", "@vorenus hello"),
            Map.of("Accept", "text/event-stream"));
    assertThat(sent.statusCode()).isEqualTo(200);
    assertThat(sent.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("text/event-stream");
    // A task, as a real client asks for it: JSON, or anything.
    for (String taken : new String[] {"application/json", "*/*"}) {
      HttpResponse<String> task =
          f.post(
              "/api/v1/tasks",
              f.task,
              Map.of("session_key", "campaign:7f3c", "agent", "vorenus", "text", "scout"),
              Map.of("Accept", taken));
      assertThat(task.statusCode()).as(taken + ": " + task.body()).isEqualTo(200);
      assertThat(task.headers().firstValue("Content-Type").orElseThrow())
          .startsWith("application/json");
    }
  }
}
