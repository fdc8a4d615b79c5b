package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/v1/status} names each agent's model: its prompt file's, or null (default). */
class StatusModelTest {
  @TempDir Path dir;
  ServerFixture server;

  @BeforeEach
  void start() throws Exception {
    server = new ServerFixture(dir, Duration.ofSeconds(5), LegioServer.DEFAULT_EVENT_BUFFER);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void eachAgentCarriesTheModelItsPromptFileNames() throws Exception {
    Path prompt = server.app.workspace().castra().resolve("centuriones/vorenus/prompt.md");
    Files.writeString(
        prompt, Files.readString(prompt).replaceFirst("---\n", "---\nmodel: claude-haiku-4-5\n"));
    JsonNode status = ServerFixture.json(server.get("/api/v1/status", server.operator));
    for (JsonNode agent : status.path("agents")) {
      String owner = agent.path("owner").asText();
      assertThat(agent.has("model")).as(owner).isTrue();
      if (owner.equals("vorenus")) {
        assertThat(agent.path("model").asText()).isEqualTo("claude-haiku-4-5");
      } else {
        assertThat(agent.path("model").isNull()).as(owner).isTrue();
      }
    }
  }
}
