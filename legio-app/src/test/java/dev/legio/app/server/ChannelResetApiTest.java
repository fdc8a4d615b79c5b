package dev.legio.app.server;

import static dev.legio.app.server.ServerApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code DELETE /api/v1/sessions/{owner}} of a channel, over real HTTP: one with a session is reset
 * (200, {@code closed} saying whether it was active); one with no session at all is 404 saying so,
 * as {@code legio reset} refuses it, and as an unknown agent is.
 */
class ChannelResetApiTest {
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
  void aChannelWithNoSessionIs404AndOneWithASessionIsReset() throws Exception {
    f.channelUsed("telegram:1", Duration.ofMinutes(5), false);
    f.channelUsed("telegram:2", Duration.ofHours(5), true);

    HttpResponse<String> none = f.delete("/api/v1/sessions/telegram:999", f.operator);

    assertError(none, 404, "no session for channel telegram:999: it never wrote");
    assertThat(ServerFixture.json(none).has("agents")).as("a channel is no agent").isFalse();
    assertThat(f.app.sessions().find("telegram:999")).isEmpty();
    JsonNode active = ServerFixture.json(f.delete("/api/v1/sessions/telegram:1", f.operator));
    assertThat(active.get("closed").asBoolean()).isTrue();
    HttpResponse<String> closed = f.delete("/api/v1/sessions/telegram:2", f.operator);
    assertThat(closed.statusCode()).as(closed.body()).isEqualTo(200);
    assertThat(ServerFixture.json(closed).get("closed").asBoolean()).isFalse();

    // The document says so.
    var delete = OpenApiEndpoint.load().at("/paths/~1api~1v1~1sessions~1{id}/delete");
    assertThat(delete.at("/responses/404/description").asText())
        .contains("a channel with no session");
  }
}
