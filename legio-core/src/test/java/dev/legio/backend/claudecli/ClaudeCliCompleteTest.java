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
    assertThat(backend.runningProcesses()).isZero();
    try (Stream<Path> files = Files.walk(home)) {
      assertThat(files.filter(f -> f.getFileName().toString().endsWith(".jsonl")))
          .as("no resumable session on disk")
          .isEmpty();
    }
  }

  @Test
  void anApiErrorIsABackendException() {
    api.enqueue(Reply.error(400, "invalid_request_error", "prompt is malformed"));

    assertThatThrownBy(() -> backend.complete("You extract facts.", "anything", null))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("Claude Code CLI");
    assertThat(backend.runningProcesses()).isZero();
  }
}
