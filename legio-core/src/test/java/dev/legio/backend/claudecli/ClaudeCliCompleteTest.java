package dev.legio.backend.claudecli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.backend.BackendException;
import dev.legio.backend.claudecli.ClaudeCliBackend.Mode;
import dev.legio.testing.FakeMessagesApi;
import dev.legio.testing.FakeMessagesApi.Reply;
import dev.legio.testing.RealClaudeCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ClaudeCliBackend#complete}: a one-shot real CLI against a {@link FakeMessagesApi}. */
class ClaudeCliCompleteTest {
  @TempDir Path home;
  @TempDir Path work;
  private FakeMessagesApi api;
  private ClaudeCliBackend backend;

  @BeforeEach
  void start() {
    RealClaudeCli.executable();
    api = FakeMessagesApi.start();
    // The CLI makes side requests of its own (titles, quota); only ours carries this prompt.
    api.scriptFor(r -> r.systemText().contains("You extract facts."));
    backend = new ClaudeCliBackend(RealClaudeCli.options(home, work, api, Mode.PERSISTENT));
  }

  @AfterEach
  void stop() {
    backend.close();
    api.close();
  }

  @Test
  void oneQuestionIsAnsweredWithoutToolsAndLeavesNoSessionBehind() throws Exception {
    api.enqueue(Reply.text("{\"facts\": []}"));
    String question = "Extract the facts.\n<conversation>\n\"quoted\" $HOME `x`\n</conversation>";

    String answer = backend.complete("You extract facts.", question, null);

    assertThat(backend.canComplete()).isTrue();
    assertThat(answer).isEqualTo("{\"facts\": []}");
    List<FakeMessagesApi.Request> asked = api.scriptedRequests();
    assertThat(asked).hasSize(1);
    assertThat(asked.get(0).systemText()).contains("You extract facts.");
    assertThat(asked.get(0).lastUserText()).contains(question);
    assertThat(asked.get(0).toolNames()).isEmpty();
    awaitNoProcessOf(backend); // it exits in the background once its answer is read
    try (Stream<Path> files = Files.walk(home)) {
      assertThat(files.filter(f -> f.getFileName().toString().endsWith(".jsonl")))
          .as("no resumable session on disk")
          .isEmpty();
    }
  }

  @Test
  void anApiErrorIsABackendException() throws Exception {
    api.enqueue(Reply.error(400, "invalid_request_error", "prompt is malformed"));

    assertThatThrownBy(() -> backend.complete("You extract facts.", "anything", null))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("Claude Code CLI");
    awaitNoProcessOf(backend);
  }

  @Test
  void theAnswerReturnsBeforeTheProcessExitsAndTheProcessIsReapedInTheBackground()
      throws Exception {
    ClaudeCliBackend.Options real = backend.options();
    SlowToExitCli cli = SlowToExitCli.around(real.executable(), work);
    try (ClaudeCliBackend slow =
        new ClaudeCliBackend(
            new ClaudeCliBackend.Options(
                cli.executable(),
                Mode.PERSISTENT,
                "default",
                List.of(),
                real.turnTimeout(),
                work,
                real.environment(),
                McpConfigSource.none()))) {
      api.enqueue(Reply.text("{\"facts\": []}"));

      assertThat(slow.complete("You extract facts.", "Extract the facts.", null))
          .isEqualTo("{\"facts\": []}");

      // the process still runs: it cannot exit before the test lets it
      List<ProcessHandle> exiting = slow.processHandles();
      assertThat(exiting).hasSize(1).allMatch(ProcessHandle::isAlive);
      assertThat(cli.log()).containsExactly("start");

      cli.release();
      awaitNoProcessOf(slow);
      assertThat(exiting).noneMatch(ProcessHandle::isAlive);
      assertThat(cli.log()).containsExactly("start", "end");
    }
  }

  /** Waits up to 20 s for {@code cli} to have no process running, and fails if it still has. */
  private static void awaitNoProcessOf(ClaudeCliBackend cli) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (cli.runningProcesses() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(cli.runningProcesses()).isZero();
  }
}
