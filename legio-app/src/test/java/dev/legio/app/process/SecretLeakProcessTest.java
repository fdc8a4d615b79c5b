package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.LoopbackHttpServer;
import dev.legio.testing.LoopbackHttpServer.Reply;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An API key never reaches standard error or the log file, even when the server echoes it back in
 * its error's body, its headers and its message, and the failure is logged with all its causes.
 */
class SecretLeakProcessTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    // A key of no known shape: only the registry of the process's secrets can mask it.
    "anthropic, ANTHROPIC_API_KEY, plainkey-2f9c41d07be84a51",
    "openai, OPENAI_API_KEY, sk-proj-Zq81LmTestKey0000aaaabbbbcccc"
  })
  void aKeyTheServerEchoesIsMaskedOnStderrAndInTheLogFile(String kind, String variable, String key)
      throws Exception {
    Path ws = Workspaces.init(dir, "legion");
    try (LoopbackHttpServer server = LoopbackHttpServer.start()) {
      String echo =
          "invalid x-api-key: " + key + " (Authorization: Bearer " + key + "; key=" + key + ")";
      String body =
          "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\""
              + echo
              + "\",\"key\":\""
              + key
              + "\"}}";
      for (int i = 0; i < 6; i++) {
        server.enqueue(
            Reply.json(
                401, body, Map.of("WWW-Authenticate", "Bearer " + key, "X-Echoed-Key", key)));
      }
      Workspaces.edit(ws, "kind = \"auto\"", "kind = \"" + kind + "\"");
      Workspaces.edit(ws, "base_url = \"\"", "base_url = \"" + server.baseUrl() + "\"");
      Workspaces.edit(ws, "level = \"info\"", "level = \"debug\"");

      LegioProcess say =
          LegioProcess.run(
              dir,
              Map.of(variable, key),
              Duration.ofSeconds(90),
              "--castra",
              ws.toString(),
              "say",
              "hello");

      // The server did receive the key, and did echo it: the failure is the one under test.
      assertThat(server.requests()).isNotEmpty();
      assertThat(server.requests().get(0).toString()).contains(key);
      assertThat(say.exitCode()).isEqualTo(1);
      String log = Workspaces.logFile(ws);
      assertThat(log).contains("401").contains("***");
      assertThat(say.stderr()).doesNotContain(key);
      assertThat(say.stdout()).doesNotContain(key);
      assertThat(log).doesNotContain(key);
    }
  }
}
