package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Any node answers any memoria request: two {@code legio serve} nodes, each with a castra of its
 * own, on one PostgreSQL database (so {@code [memoria] store} is {@code "database"} by default).
 */
class MemoriaNodesTest {
  @TempDir Path dir;

  @Test
  void whatOneNodePublishesTheOtherServesAtOnceAndAnEdictumNameIsUsedOnceAcrossNodes()
      throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      Map<String, String> env = Map.of("LEGIO_DB_URL", database.url());
      Files.createDirectories(dir.resolve("a"));
      Files.createDirectories(dir.resolve("b"));
      try (ServerFixture a = new ServerFixture(dir.resolve("a"), Duration.ofSeconds(5), 4096, env);
          ServerFixture b = new ServerFixture(dir.resolve("b"), Duration.ofSeconds(5), 4096, env)) {
        assertThat(
                a.post("/api/v1/memoria/acta/ford", a.operator, Map.of("text", "Shallow."))
                    .statusCode())
            .isEqualTo(201);
        JsonNode ford = ServerFixture.json(b.get("/api/v1/memoria/acta/ford", b.operator));
        assertThat(ford.at("/notes/0/text").asText()).isEqualTo("Shallow.");
        assertThat(
                b.post("/api/v1/memoria/acta/ford", b.operator, Map.of("text", "Deeper now."))
                    .statusCode())
            .isEqualTo(201);
        assertThat(ServerFixture.json(a.get("/api/v1/memoria/acta/ford", a.operator)).get("notes"))
            .extracting(n -> n.get("text").asText())
            .containsExactly("Shallow.", "Deeper now.");

        assertThat(
                b.post("/api/v1/memoria/edicta/hold", b.operator, Map.of("text", "Hold."))
                    .statusCode())
            .isEqualTo(201);
        ServerApiTest.assertError(
            a.post("/api/v1/memoria/edicta/hold", a.operator, Map.of("text", "Again.")),
            409,
            "exists; publish under a new name");
        assertThat(dir.resolve("a/legion/castra/acta/ford.xml")).doesNotExist();
        assertThat(dir.resolve("b/legion/castra/edicta/hold.xml")).doesNotExist();
      }
    }
  }
}
