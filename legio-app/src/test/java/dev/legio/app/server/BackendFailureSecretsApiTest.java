package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.LoopbackHttpServer.Reply;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A back-end that fails, reached at a {@code base_url} with a user and password, and whose error
 * echoes a secret of the process: neither the task's 502 nor the log file shows the password or the
 * secret, and both say what failed.
 */
class BackendFailureSecretsApiTest {
  private static final String URL_PASSWORD = "URLSECRETpw";
  private static final String DB_PASSWORD = "db-pw-7f3c9e1d";

  @TempDir Path dir;

  @Test
  void aFailedTasksAnswerAndTheLogMaskTheUrlsPasswordAndTheProcesssSecrets() throws Exception {
    Path root = dir.resolve("legion");
    WorkspaceInitializer.initialise(new Workspace(root));
    try (LoopbackHttpServer backend = LoopbackHttpServer.start()) {
      String error =
          "{\"error\":{\"message\":\"upstream down: db=" + DB_PASSWORD + "\",\"type\":\"x\"}}";
      for (int i = 0; i < 4; i++) {
        backend.enqueue(Reply.json(500, error));
      }
      String baseUrl = "http://probeuser:" + URL_PASSWORD + "@127.0.0.1:" + backend.port() + "/v1";
      Path toml = root.resolve("legio.toml");
      Files.writeString(
          toml,
          Files.readString(toml)
              .replace("kind = \"auto\"", "kind = \"openai\"")
              .replace("base_url = \"\"", "base_url = \"" + baseUrl + "\"")
              .replace("max_retries = 3", "max_retries = 0")
              .replace("\nport = 8740", "\nport = 0")
              .replace("http_port = 8740", "http_port = 0"));

      Map<String, String> env = Map.of("LEGIO_DB_PASSWORD", DB_PASSWORD);
      try (LegioApp app = LegioApp.open(new Workspace(root), env, Clock.systemUTC())) {
        ApiTokens tokens = new ApiTokens(app.workspace().castra());
        String task = tokens.create("tasks", Role.TASK, List.of()).secret();
        String operator = tokens.create("console", Role.OPERATOR, List.of()).secret();
        LegioServer server = LegioServer.asServed(app, Clock.systemUTC(), tokens).start();
        try {
          HttpResponse<String> failed =
              post(
                  server,
                  "/api/v1/tasks",
                  task,
                  "{\"session_key\":\"k1\",\"agent\":\"vorenus\",\"text\":\"go\"}");
          HttpResponse<String> turn =
              post(server, "/api/v1/messages", operator, "{\"text\":\"@vorenus go\"}");

          // The back-end was reached, with the failure under test.
          assertThat(backend.requests()).hasSizeGreaterThanOrEqualTo(2);
          assertThat(failed.statusCode()).as(failed.body()).isEqualTo(502);
          assertThat(failed.body())
              .contains("OpenAI-compatible API at http://***@127.0.0.1:" + backend.port())
              .contains("HTTP 500")
              .contains("db=***")
              .doesNotContain(URL_PASSWORD)
              .doesNotContain(DB_PASSWORD);
          assertThat(turn.body()).doesNotContain(URL_PASSWORD).doesNotContain(DB_PASSWORD);
          String log = Files.readString(app.config().logging().file());
          assertThat(log).contains("HTTP 500").contains("http://***@127.0.0.1");
          assertThat(log).doesNotContain(URL_PASSWORD).doesNotContain(DB_PASSWORD);
        } finally {
          server.close();
        }
      }
    }
  }

  private static HttpResponse<String> post(
      LegioServer server, String path, String token, String json) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(
          HttpRequest.newBuilder(server.url().resolve(path))
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(json))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }
}
