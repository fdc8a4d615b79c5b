package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Revoking edicta, every agent's commentarii and search_memoria over the API, as the legatus. */
class LegatusMemoriaApiTest {
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
  void anEdictumIsRevokedOnceAndStaysReadable() throws Exception {
    String op = server.operator;
    server.post("/api/v1/memoria/edicta/north-road", op, Map.of("text", "Hold the north road."));
    JsonNode revoked =
        ServerFixture.json(
            server.post(
                "/api/v1/memoria/edicta/north-road/revoke", op, Map.of("reason", "relieved")));
    assertThat(revoked.path("revoked").asBoolean()).isTrue();
    assertThat(revoked.path("revocation").path("by").asText()).isEqualTo("legatus");
    assertThat(revoked.path("revocation").path("reason").asText()).isEqualTo("relieved");
    JsonNode read = ServerFixture.json(server.get("/api/v1/memoria/edicta/north-road", op));
    assertThat(read.path("revoked").asBoolean()).isTrue();

    var again = server.post("/api/v1/memoria/edicta/north-road/revoke", op, Map.of());
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(ServerFixture.json(again).path("error").asText()).contains("already revoked");
    var unknown = server.post("/api/v1/memoria/edicta/nowhere/revoke", op, Map.of());
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(
            server
                .post("/api/v1/memoria/edicta/north-road/revoke", server.gateway, Map.of())
                .statusCode())
        .isEqualTo(403);
  }

  @Test
  void everyAgentsCommentariiAreListedReadAndSearched() throws Exception {
    server
        .app
        .memoria()
        .forLegatus("legatus")
        .writeCommentarium("vorenus", "ford", "The ford is <b>shallow</b> at dawn.");
    String op = server.operator;
    JsonNode list = ServerFixture.json(server.get("/api/v1/memoria/commentarii/vorenus", op));
    assertThat(list.path("commentarii").get(0).path("name").asText()).isEqualTo("ford");
    JsonNode entry = ServerFixture.json(server.get("/api/v1/memoria/commentarii/vorenus/ford", op));
    assertThat(entry.path("notes").get(0).path("text").asText())
        .isEqualTo("The ford is <b>shallow</b> at dawn.");
    assertThat(server.get("/api/v1/memoria/commentarii/vorenus/nothing", op).statusCode())
        .isEqualTo(404);
    assertThat(server.get("/api/v1/memoria/commentarii/nobody", op).statusCode()).isEqualTo(404);
    assertThat(
            ServerFixture.json(server.get("/api/v1/memoria/commentarii/pullo", op))
                .path("commentarii"))
        .isEmpty();

    JsonNode found = ServerFixture.json(server.get("/api/v1/memoria/search?q=SHALLOW+ford", op));
    assertThat(found.path("hits")).hasSize(1);
    assertThat(found.path("hits").get(0).path("agent").asText()).isEqualTo("vorenus");
    assertThat(found.path("hits").get(0).path("kind").asText()).isEqualTo("commentarii");
    assertThat(ServerFixture.json(server.get("/api/v1/memoria/search?q=absent", op)).path("hits"))
        .isEmpty();
    var empty = server.get("/api/v1/memoria/search?q=", op);
    assertThat(empty.statusCode()).isEqualTo(400);
    assertThat(ServerFixture.json(empty).path("error").asText()).contains("'q'");
  }

  @Test
  void anAgentsMemoryFilesAreReadOnlyMarkdownWithMemoryMdFirst() throws Exception {
    Path folder = server.app.config().memory().dir().resolve("vorenus");
    java.nio.file.Files.createDirectories(folder);
    java.nio.file.Files.writeString(folder.resolve("MEMORY.md"), "# Memory\n- [roads](roads.md)\n");
    java.nio.file.Files.writeString(folder.resolve("roads.md"), "The north road floods.");
    java.nio.file.Files.writeString(folder.resolve(".lock"), "");
    java.nio.file.Files.writeString(folder.resolve("state.json"), "{}");
    JsonNode memory =
        ServerFixture.json(server.get("/api/v1/agents/vorenus/memory", server.operator));
    assertThat(memory.path("files").findValuesAsText("name"))
        .containsExactly("MEMORY.md", "roads.md");
    assertThat(memory.path("files").get(1).path("text").asText())
        .isEqualTo("The north road floods.");
    assertThat(
            ServerFixture.json(server.get("/api/v1/agents/pullo/memory", server.operator))
                .path("files"))
        .isEmpty();
    HttpResponse<String> nobody = server.get("/api/v1/agents/nobody/memory", server.operator);
    assertThat(nobody.statusCode()).isEqualTo(404);
    assertThat(ServerFixture.json(nobody).path("error").asText())
        .isEqualTo("no agent named 'nobody'. Known agents: legatus, pullo, vorenus.");
    assertThat(server.get("/api/v1/agents/caesar/memory", server.operator).statusCode())
        .isEqualTo(404);
    assertThat(server.get("/api/v1/agents/vorenus/memory", server.gateway).statusCode())
        .isEqualTo(403);
  }

  @Test
  void aMemoryFileThatIsASymbolicLinkIsNeverServed() throws Exception {
    Path secret = dir.resolve("shadow");
    java.nio.file.Files.writeString(secret, "root:THE-SECRET-HASH:19000::::::\n");
    Path folder = server.app.config().memory().dir().resolve("vorenus");
    java.nio.file.Files.createDirectories(folder);
    java.nio.file.Files.writeString(folder.resolve("roads.md"), "The north road floods.");
    java.nio.file.Files.createSymbolicLink(folder.resolve("leak.md"), secret);
    java.nio.file.Files.createSymbolicLink(folder.resolve("MEMORY.md"), secret);

    HttpResponse<String> response = server.get("/api/v1/agents/vorenus/memory", server.operator);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).doesNotContain("THE-SECRET-HASH");
    assertThat(ServerFixture.json(response).path("files").findValuesAsText("name"))
        .containsExactly("roads.md");
  }
}
