package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code DELETE /api/v1/sessions/{owner}} of an agent removed from the castra whose session row is
 * left: 200, as {@code legio reset} does and as the OpenAPI document says; a name with no row that
 * is no agent stays 404.
 */
class RemovedAgentResetApiTest {
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
  void theLeftOverSessionOfARemovedAgentIsResetWith200() throws Exception {
    HttpResponse<String> sent =
        f.post("/api/v1/messages", f.operator, Map.of("text", "@pullo dig in"));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
    try (Stream<Path> files = Files.walk(f.root.resolve("castra/centuriones/pullo"))) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }

    HttpResponse<String> reset = f.delete("/api/v1/sessions/pullo", f.operator);

    assertThat(reset.statusCode()).as(reset.body()).isEqualTo(200);
    assertThat(ServerFixture.json(reset).get("closed").asBoolean()).isTrue();
    assertThat(f.app.sessions().find("pullo").orElseThrow().active()).isFalse();
    assertError(f.delete("/api/v1/sessions/nobody", f.operator), 404, "no agent named 'nobody'");

    // The document says so.
    var delete = OpenApiEndpoint.load().at("/paths/~1api~1v1~1sessions~1{id}/delete");
    assertThat(delete.at("/responses/200/description").asText())
        .contains("agent removed from the castra");
    assertThat(delete.at("/responses/404/description").asText()).contains("no session row");
  }
}
