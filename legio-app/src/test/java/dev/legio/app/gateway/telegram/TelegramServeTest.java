package dev.legio.app.gateway.telegram;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.cli.Main;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio serve} in a child process with the Telegram gateway enabled while Telegram is down:
 * Legio serves everything else, and both {@code /api/v1/status} and {@code legio status} (another
 * process) say the gateway is waiting and why.
 */
class TelegramServeTest {
  @TempDir Path dir;

  private static String run(Path cwd, String... args) {
    StringWriter out = new StringWriter();
    int code =
        Main.run(
            args,
            Map.of("TELEGRAM_BOT_TOKEN", TelegramFixture.TOKEN),
            cwd,
            new PrintWriter(out, true),
            new PrintWriter(out, true));
    assertThat(code).as(out.toString()).isZero();
    return out.toString();
  }

  @Test
  void telegramDownAtStartIsShownAsWaitingWhileLegioServes() throws Exception {
    int dead;
    try (ServerSocket free = new ServerSocket(0)) {
      dead = free.getLocalPort();
    }
    run(dir, "init", "legion");
    Path ws = dir.resolve("legion");
    Path toml = ws.resolve("legio.toml");
    Files.writeString(
        toml,
        Files.readString(toml)
            .replace("kind = \"auto\"", "kind = \"offline\"")
            .replace("http_port = 8740", "http_port = 0")
            .replace("\nport = 8740", "\nport = 0")
            .replaceFirst(
                "(?s)\\[gateways.telegram\\]\\n.*?enabled = false",
                "[gateways.telegram]\nenabled = true")
            .replace(
                "api_url = \"https://api.telegram.org\"",
                "api_url = \"http://127.0.0.1:" + dead + "\""));
    String token =
        run(ws, "token", "create", "console", "--role", "operator")
            .lines()
            .filter(l -> !l.isBlank())
            .findFirst() // the token; a note about it follows
            .orElseThrow()
            .strip();
    String java = ProcessHandle.current().info().command().orElse("java");
    ProcessBuilder builder =
        new ProcessBuilder(
                List.of(
                    java,
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName(),
                    "--castra",
                    ws.toString(),
                    "serve"))
            .redirectErrorStream(true);
    builder.environment().put("TELEGRAM_BOT_TOKEN", TelegramFixture.TOKEN);
    Process serve = builder.start();
    try {
      BufferedReader output =
          new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
      String first = output.readLine();
      while (first != null && !first.startsWith("Legio is serving")) {
        first = output.readLine();
      }
      assertThat(first).startsWith("Legio is serving");
      URI api = URI.create(first.substring(first.indexOf(" at ") + 4, first.indexOf(": store")));
      HttpClient http = HttpClient.newHttpClient();
      assertThat(
              http.send(
                      HttpRequest.newBuilder(api.resolve("/healthz")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(200);
      HttpResponse<String> said =
          http.send(
              HttpRequest.newBuilder(api.resolve("/api/v1/messages"))
                  .header("Authorization", "Bearer " + token)
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString("{\"text\": \"@vorenus still there?\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(said.statusCode()).as(said.body()).isEqualTo(200);

      JsonNode gateway = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (System.nanoTime() < deadline) {
        JsonNode status =
            FakeTelegram.JSON.readTree(
                http.send(
                        HttpRequest.newBuilder(api.resolve("/api/v1/status"))
                            .header("Authorization", "Bearer " + token)
                            .build(),
                        HttpResponse.BodyHandlers.ofString())
                    .body());
        gateway = status.at("/gateways/0");
        if (gateway.path("detail").asText().contains("not reachable")) {
          break;
        }
        Thread.sleep(100);
      }
      assertThat(gateway.path("name").asText()).isEqualTo("telegram");
      assertThat(gateway.path("state").asText()).isEqualTo("waiting");
      assertThat(gateway.path("detail").asText())
          .contains("not reachable at http://127.0.0.1:" + dead)
          .doesNotContain(TelegramFixture.TOKEN);

      // legio status, another process, reads what serve stored
      String shown = "";
      deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (System.nanoTime() < deadline && !shown.contains("not reachable")) {
        shown = run(ws, "status");
        Thread.sleep(500);
      }
      assertThat(shown)
          .containsPattern("telegram +waiting +0 +0 .*not reachable at http://127.0.0.1:" + dead)
          .doesNotContain(TelegramFixture.TOKEN);

      serve.destroy(); // SIGTERM
      assertThat(serve.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(run(ws, "status")).containsPattern("telegram +stopped");
    } finally {
      serve.destroyForcibly();
    }
  }
}
