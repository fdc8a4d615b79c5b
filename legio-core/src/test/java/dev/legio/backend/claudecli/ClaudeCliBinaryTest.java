package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClaudeCliBinaryTest {
  @TempDir Path dir;

  private Path executable(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  @Test
  void noClaudeAnywhereSaysHowToInstallItOrChooseAnotherBackEnd() {
    Map<String, String> env =
        Map.of("PATH", dir.toString(), "LEGIO_CLAUDE_CLI_DIR", dir.toString());
    assertThatThrownBy(() -> ClaudeCliBinary.locate("claude", env))
        .isInstanceOf(ClaudeCliBinary.NotFoundException.class)
        .hasMessageContaining("bin/install-claude-cli")
        .hasMessageContaining("npm install -g @anthropic-ai/claude-code")
        .hasMessageContaining("[backend.claude_cli] binary")
        .hasMessageContaining("[backend] kind");
  }

  @Test
  void thePathComesFirstThenLegiosCacheFolder() throws Exception {
    Path cached = executable(dir.resolve("cache/node_modules/.bin/claude"));
    Path onPath = executable(dir.resolve("bin/claude"));
    Map<String, String> cacheOnly =
        Map.of(
            "PATH",
            dir.resolve("empty").toString(),
            "LEGIO_CLAUDE_CLI_DIR",
            dir.resolve("cache").toString());
    Map<String, String> both =
        Map.of(
            "PATH",
            dir.resolve("bin").toString(),
            "LEGIO_CLAUDE_CLI_DIR",
            dir.resolve("cache").toString());

    assertThat(ClaudeCliBinary.locate("claude", cacheOnly)).isEqualTo(cached);
    assertThat(ClaudeCliBinary.locate("claude", both)).isEqualTo(onPath);
    assertThat(ClaudeCliBinary.locate(onPath.toString(), cacheOnly)).isEqualTo(onPath);
  }
}
