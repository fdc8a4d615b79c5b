package dev.legio.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.LoopbackHttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackendDetectorTest {
  @TempDir Path dir;
  private final List<String> probed = new ArrayList<>();

  private BackendDetector detector(Map<String, String> env, Path claude, boolean ollama) {
    return new BackendDetector(
        env,
        program -> program.equals("claude") ? Optional.ofNullable(claude) : Optional.empty(),
        url -> {
          probed.add(url);
          return ollama;
        });
  }

  @Test
  void aClaudeProgramComesFirst() {
    BackendDetector.Choice choice =
        detector(Map.of("ANTHROPIC_API_KEY", "sk-ant-x"), Path.of("/usr/bin/claude"), true)
            .detect("ANTHROPIC_API_KEY", null);
    assertThat(choice.kind()).isEqualTo("claude-cli");
    assertThat(choice.reason()).contains("/usr/bin/claude");
    assertThat(probed).isEmpty();
  }

  @Test
  void thenAnAnthropicKeyWithoutShowingIt() {
    BackendDetector.Choice choice =
        detector(Map.of("ANTHROPIC_API_KEY", "sk-ant-secret"), null, true)
            .detect("ANTHROPIC_API_KEY", null);
    assertThat(choice.kind()).isEqualTo("anthropic");
    assertThat(choice.reason())
        .contains("ANTHROPIC_API_KEY is set")
        .doesNotContain("sk-ant-secret");
  }

  @Test
  void thenAnOllamaServerAtTheDefaultOrConfiguredUrl() {
    BackendDetector.Choice choice =
        detector(Map.of("ANTHROPIC_API_KEY", " "), null, true).detect("ANTHROPIC_API_KEY", "");
    assertThat(choice.kind()).isEqualTo("ollama");
    assertThat(probed).containsExactly("http://localhost:11434");
    detector(Map.of(), null, true).detect("ANTHROPIC_API_KEY", "http://gpu:11434");
    assertThat(probed).last().isEqualTo("http://gpu:11434");
  }

  @Test
  void elseOfflineSayingWhatWasMissingAndHowToChoose() {
    BackendDetector.Choice choice = detector(Map.of(), null, false).detect("MY_KEY", null);
    assertThat(choice.kind()).isEqualTo("offline");
    assertThat(choice.reason())
        .contains("no claude program")
        .contains("no MY_KEY")
        .contains("http://localhost:11434")
        .contains("[backend] kind");
  }

  @Test
  void thePathLookupFindsOnlyExecutableFiles() throws Exception {
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Path other = Files.createDirectory(dir.resolve("other"));
    Files.writeString(other.resolve("claude"), "not executable");
    Path claude = Files.writeString(bin.resolve("claude"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(claude, PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> env = Map.of("PATH", other + ":" + bin);
    assertThat(BackendDetector.pathLookup(env).find("claude")).contains(claude);
    assertThat(BackendDetector.pathLookup(Map.of("PATH", other.toString())).find("claude"))
        .isEmpty();
    assertThat(BackendDetector.pathLookup(Map.of()).find("claude")).isEmpty();
  }

  @Test
  void theOllamaProbeAsksForTheVersion() {
    try (LoopbackHttpServer server = LoopbackHttpServer.start()) {
      server.enqueue(LoopbackHttpServer.Reply.json(200, "{\"version\":\"0.12.6\"}"));
      assertThat(
              BackendDetector.ollamaProbe(java.time.Duration.ofSeconds(2)).test(server.baseUrl()))
          .isTrue();
      assertThat(server.requests().get(0).path()).isEqualTo("/api/version");
    }
    assertThat(
            BackendDetector.ollamaProbe(java.time.Duration.ofMillis(500))
                .test("http://127.0.0.1:" + LoopbackHttpServer.closedPort()))
        .isFalse();
  }
}
