package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.FakeMessagesApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C (SIGINT) during a {@code legio chat} turn: the chat ends with status 130 and its last line
 * says what became of the message, as {@code legio say} does; before, a chat on a terminal ignored
 * it until the turn ended, and one reading piped lines died without a word.
 */
class ChatInterruptProcessTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private FakeMessagesApi model;
  private Path ws;

  @BeforeEach
  void workspaceOnAModel() {
    model = FakeMessagesApi.start();
    ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"anthropic\"");
    Workspaces.edit(ws, "base_url = \"\"", "base_url = \"" + model.baseUrl() + "\"");
  }

  @AfterEach
  void stopModel() {
    model.close();
  }

  @Test
  void ctrlCMidTurnEndsTheChatSayingTheMessageIsLoggedAndItsReplyWillNotCome() throws Exception {
    model.enqueue(FakeMessagesApi.Reply.hang());
    Path input = Files.writeString(dir.resolve("lines.txt"), "@vorenus report\n");
    try (LegioProcess chat =
        LegioProcess.start(
            dir,
            Map.of("ANTHROPIC_API_KEY", "test-key-interrupt-0000"),
            input,
            "--castra",
            ws.toString(),
            "chat")) {
      chat.await(
          "the turn at the model",
          LIMIT,
          () -> model.requests().stream().anyMatch(FakeMessagesApi.Request::isMessages));
      chat.signal("INT");

      assertThat(chat.awaitExit(LIMIT)).isEqualTo(130);
      String[] lines = (chat.stdout() + chat.stderr()).strip().split("\n");
      assertThat(lines[lines.length - 1])
          .isEqualTo(
              "legio: interrupted: your message is logged (legio history shows it), but vorenus"
                  + " had not answered it and will not (its turn ends with this process); send it"
                  + " again for a reply");
    }
  }
}
