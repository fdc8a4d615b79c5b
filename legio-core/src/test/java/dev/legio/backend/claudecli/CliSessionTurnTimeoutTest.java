package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.BackendSession;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TurnStart;
import dev.legio.backend.TurnTimeoutException;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CliSession}'s one time-out per turn, against a stand-in for the CLI whose timing the test
 * sets: its first run says after {@link #FIRST_TRY_SECONDS} that the session is already in use,
 * every later run answers after {@link #RETRY_SECONDS}. Each alone fits in the turn's time-out, the
 * two together do not: a retry that got a fresh time-out would answer.
 */
class CliSessionTurnTimeoutTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  /** Four seconds short of the time-out each, so that a loaded machine's delays change nothing. */
  private static final int FIRST_TRY_SECONDS = 6;

  private static final int RETRY_SECONDS = 6;

  private static final String FAKE_CLI =
      """
      #!/bin/sh
      # Stands in for claude: the first run says the session is in use, later runs answer.
      runs="$FAKE_CLI_DIR/runs"
      first=yes
      [ -e "$runs" ] && first=no
      echo "$*" >> "$runs"
      if [ "$first" = yes ]; then
        sleep %d
        echo "Error: Session ID is already in use." >&2
        exit 1
      fi
      sleep %d
      echo '{"type":"result","subtype":"success","is_error":false,"result":"resumed","usage":{"input_tokens":1,"output_tokens":1}}'
      """
          .formatted(FIRST_TRY_SECONDS, RETRY_SECONDS);

  @TempDir Path dir;
  private ClaudeCliBackend backend;

  @AfterEach
  void stop() {
    if (backend != null) {
      backend.close();
    }
  }

  private BackendSession open() throws Exception {
    Path cli = dir.resolve("claude");
    Files.writeString(cli, FAKE_CLI);
    Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwx------"));
    backend =
        new ClaudeCliBackend(
            new ClaudeCliBackend.Options(
                cli,
                Mode.PER_TURN,
                "",
                List.of(),
                TIMEOUT,
                dir,
                Map.of("FAKE_CLI_DIR", dir.toString()),
                McpConfigSource.none()));
    return backend.open(
        new SessionSpec("vorenus", "You are vorenus.", null, SessionSpec.OPERATOR_ROLE, null));
  }

  private List<String> runs() throws Exception {
    Path runs = dir.resolve("runs");
    return Files.exists(runs) ? Files.readAllLines(runs) : List.of();
  }

  @Test
  void theResumeAfterAlreadyInUseGetsWhatIsLeftOfTheTurnsTimeOut() throws Exception {
    try (BackendSession session = open()) {
      assertThatThrownBy(() -> session.send("hello", e -> {}))
          .isInstanceOf(TurnTimeoutException.class)
          .hasMessageContaining("did not answer within 10 s");
    }
    // the retry ran, and was stopped at the first try's deadline
    assertThat(runs()).hasSize(2);
    assertThat(runs().get(0)).contains("--session-id");
    assertThat(runs().get(1)).contains("--resume");
  }

  @Test
  void aTurnWithNoTimeLeftFailsWithTheTimeOutAndStartsNoProcess() throws Exception {
    TurnStart spent = new TurnStart(System.nanoTime() - TIMEOUT.plusSeconds(1).toNanos());
    try (BackendSession session = open()) {
      assertThatThrownBy(() -> session.send("hello", e -> {}, spent))
          .isInstanceOf(TurnTimeoutException.class)
          .hasMessageContaining("did not answer within 10 s")
          .hasMessageContaining("none was started; send the message again");
    }
    assertThat(runs()).isEmpty();
  }
}
