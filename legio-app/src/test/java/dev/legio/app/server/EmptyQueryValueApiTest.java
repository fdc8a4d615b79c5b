package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query parameter sent empty ({@code ?limit=}, or {@code ?limit} alone) is 400 naming it and what
 * a valid value is, on every endpoint that reads it, over real HTTP ({@link QueryParameters}): it
 * is a client's bug, never taken as the parameter left out. Left out, each takes its default.
 */
class EmptyQueryValueApiTest {
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
  void anEmptyValueIsRefusedNamingTheParameterAndWhatToSendOnEveryEndpoint() throws Exception {
    f.post("/api/v1/messages", f.operator, Map.of("text", "@vorenus one"));
    String session =
        "/api/v1/sessions/"
            + ServerFixture.json(f.get("/api/v1/sessions", f.operator))
                .at("/sessions/0/session_id")
                .asText();
    // Each request, with the parameter and what its refusal says a valid value is.
    Map<String, List<String>> empty = new LinkedHashMap<>();
    empty.put("/api/v1/history?limit=", List.of("limit", "a whole number from 1 to 1000"));
    empty.put("/api/v1/history?limit", List.of("limit", "a whole number from 1 to 1000"));
    empty.put("/api/v1/history?limit=5&after=", List.of("after", "a whole number from 0 to"));
    empty.put("/api/v1/history?before=", List.of("before", "a whole number from 1 to"));
    empty.put("/api/v1/history?viewer=", List.of("viewer", "caesar, legatus, an agent"));
    empty.put("/api/v1/sessions?limit=", List.of("limit", "a whole number from 1 to 1000"));
    empty.put("/api/v1/sessions?cursor=", List.of("cursor", "the next_cursor of the page"));
    empty.put(session + "?before=", List.of("before", "a whole number from 0 to"));
    empty.put(session + "?limit=", List.of("limit", "a whole number from 1 to 1000"));
    empty.put("/api/v1/events?after=", List.of("after", "a whole number from 0 to"));
    empty.put("/api/v1/status?channels=", List.of("channels", "'open' or 'all'"));
    empty.put("/api/v1/status?limit=", List.of("limit", "a whole number from 1 to 10000"));
    empty.put("/api/v1/usage?since=", List.of("since", "an age such as 30d"));
    empty.put("/api/v1/usage?by=", List.of("by", "agent, session, key"));
    empty.put("/api/v1/memoria/search?q=", List.of("q", "one or more words"));
    empty.put("/api/v1/memoria/search?q=north&limit=", List.of("limit", "a whole number from 1"));
    empty.put("/api/v1/tasks/sessions?session_key=", List.of("session_key", "the session key"));
    for (Map.Entry<String, List<String>> e : empty.entrySet()) {
      HttpResponse<String> r = f.get(e.getKey(), f.operator);
      assertThat(r.statusCode()).as(e.getKey() + ": " + r.body()).isEqualTo(400);
      String name = e.getValue().get(0);
      assertError(r, 400, "query parameter '" + name + "' is empty (?" + name + "=): give ");
      assertThat(ServerFixture.json(r).get("error").asText())
          .as(e.getKey())
          .contains(e.getValue().get(1));
    }

    // Left out, each takes its default; a parameter the endpoint does not read may be empty.
    for (String path :
        List.of(
            "/api/v1/history",
            "/api/v1/history?unused=",
            "/api/v1/sessions",
            session,
            "/api/v1/status",
            "/api/v1/usage")) {
      HttpResponse<String> r = f.get(path, f.operator);
      assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    }

    // The document says so.
    JsonNode badRequest = OpenApiEndpoint.load().at("/components/responses/E400/description");
    assertThat(badRequest.asText()).contains("empty");
  }
}
