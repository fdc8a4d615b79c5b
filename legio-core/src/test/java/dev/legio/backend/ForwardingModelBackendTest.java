package dev.legio.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.backend.claudecli.McpConfigSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ForwardingModelBackend} around the Claude Code CLI back-end, with a stand-in for the CLI
 * that notes each run and answers: a turn reaches the wrapped session with its own {@link
 * TurnStart}, so the wrapped back-end's one time-out per turn counts from it.
 */
class ForwardingModelBackendTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static final String FAKE_CLI =
      """
      #!/bin/sh
      # Stands in for claude: notes the run, reads the turn (stdin closed after it), answers.
      echo "$*" >> "$FAKE_CLI_DIR/runs"
      cat > /dev/null
      echo '{"type":"result","subtype":"success","is_error":false,"result":"answered","usage":{"input_tokens":1,"output_tokens":1}}'
      """;

  @TempDir Path dir;
  private ModelBackend backend;

  @BeforeEach
  void start() throws Exception {
    Path cli = dir.resolve("claude");
    Files.writeString(cli, FAKE_CLI);
    Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwx------"));
    backend =
        new ForwardingModelBackend(
            new ClaudeCliBackend(
                new ClaudeCliBackend.Options(
                    cli,
                    ClaudeCliBackend.Mode.PER_TURN,
                    "",
                    List.of(),
                    TIMEOUT,
                    dir,
                    Map.of("FAKE_CLI_DIR", dir.toString()),
                    McpConfigSource.none())));
  }

  @AfterEach
  void stop() {
    backend.close();
  }

  private BackendSession open() {
    return backend.open(
        new SessionSpec("vorenus", "You are vorenus.", null, SessionSpec.OPERATOR_ROLE, null));
  }

  private List<String> runs() throws Exception {
    Path runs = dir.resolve("runs");
    return Files.exists(runs) ? Files.readAllLines(runs) : List.of();
  }

  @Test
  void aTurnReachesTheWrappedSessionWithItsStartSoItsSpentTimeOutStartsNoProcess()
      throws Exception {
    TurnStart spent = new TurnStart(System.nanoTime() - TIMEOUT.plusSeconds(1).toNanos());
    try (BackendSession session = open()) {
      assertThatThrownBy(() -> session.send("hello", e -> {}, spent))
          .isInstanceOf(TurnTimeoutException.class)
          .hasMessageContaining("did not answer within 10 s");
    }
    assertThat(runs()).isEmpty();
  }

  @Test
  void aTurnSentWithoutAStartStartsWhenItIsSent() throws Exception {
    try (BackendSession session = open()) {
      assertThat(session.send("hello", e -> {}).text()).isEqualTo("answered");
    }
    assertThat(runs()).hasSize(1);
  }
}
