package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.RealClaudeCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's {@code --mcp-config} is built once, against the real Claude Code CLI (which talks to
 * a {@link FakeMessagesApi}): every process of the session starts with that one value.
 */
class CliSessionMcpConfigTest {
  @TempDir Path home;
  @TempDir Path work;
  private FakeMessagesApi api;
  private ClaudeCliBackend backend;

  @BeforeEach
  void start() {
    RealClaudeCli.executable();
    api = FakeMessagesApi.start();
    api.fallback(r -> Reply.text("Noted."));
  }

  @AfterEach
  void stop() {
    if (backend != null) {
      backend.close();
    }
    api.close();
  }

  @Test
  void everyProcessOfASessionGetsTheMcpConfigBuiltOnceWhenItOpened() throws Exception {
    // A source whose every answer differs (a server that fails at once: no server to start).
    AtomicInteger built = new AtomicInteger();
    McpConfigSource counting =
        spec ->
            Optional.of(
                "{\"mcpServers\": {\"s"
                    + built.incrementAndGet()
                    + "\": {\"type\": \"stdio\", \"command\": \"false\"}}}");
    ClaudeCliBackend.Options real = RealClaudeCli.options(home, work, api, Mode.PERSISTENT);
    backend =
        new ClaudeCliBackend(
            new ClaudeCliBackend.Options(
                recordingMcpConfigs(real.executable()),
                Mode.PERSISTENT,
                "default",
                List.of(),
                real.turnTimeout(),
                work,
                real.environment(),
                counting));

    try (BackendSession session =
        backend.open(
            new SessionSpec(
                "vorenus", "You are vorenus.", null, SessionSpec.OPERATOR_ROLE, null))) {
      session.send("Remember the eagle", e -> {});
      // the process dies: the next turn starts another one, with --resume
      for (ProcessHandle p : backend.processHandles()) {
        p.destroyForcibly();
        p.onExit().join();
      }
      session.send("And the bridge", e -> {});
    }

    assertThat(built).hasValue(1);
    assertThat(Files.readAllLines(work.resolve(STARTS)))
        .containsExactly(
            "{\"mcpServers\": {\"s1\": {\"type\": \"stdio\", \"command\": \"false\"}}}",
            "{\"mcpServers\": {\"s1\": {\"type\": \"stdio\", \"command\": \"false\"}}}");
  }

  /** Where {@link #recordingMcpConfigs} writes each start's {@code --mcp-config}, one a line. */
  private static final String STARTS = "mcp-configs";

  /**
   * The real CLI behind a script that first writes down the process's {@code --mcp-config} (the CLI
   * renames its process, so its command line cannot be read from outside).
   */
  private Path recordingMcpConfigs(Path cli) throws Exception {
    Path script = work.resolve("claude-recording");
    Files.writeString(
        script,
        """
        #!/bin/sh
        prev=
        for a in "$@"; do
          [ "$prev" = "--mcp-config" ] && printf '%%s\n' "$a" >> '%s'
          prev=$a
        done
        exec '%s' "$@"
        """
            .formatted(work.resolve(STARTS), cli));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }
}
