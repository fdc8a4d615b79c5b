package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio chat} reading from a pipe: a line Legio refuses (over {@code max_message_bytes}, or
 * holding a NUL) is refused with its reason and the lines after it are still read and answered; a
 * line of 2 MB is read in the time it takes to read 2 MB.
 */
class ChatRefusedLineProcessTest {
  @TempDir Path dir;

  @Test
  void refusedLinesAreRefusedWithTheirReasonAndTheChatGoesOn() throws Exception {
    Path ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"offline\"");
    Path input = dir.resolve("input.txt");
    String huge = "@pullo " + "x".repeat(2 * 1024 * 1024);
    Files.writeString(
        input, huge + "\n@pullo a\u0000b\n@pullo still there?\n/quit\n", StandardCharsets.UTF_8);

    // Before, the 2 MB line alone took 88 s and ended the chat (exit 2).
    LegioProcess chat = LegioProcess.start(dir, Map.of(), input, "--castra", ws.toString(), "chat");
    int code = chat.awaitExit(Duration.ofSeconds(60));

    assertThat(code).as(chat.stderr()).isZero();
    String all = chat.stdout() + chat.stderr();
    assertThat(all).contains("line refused").contains("NUL");
    assertThat(all.split("line refused", -1)).hasSize(3);
    assertThat(all).contains("pullo received: \"@pullo still there?\"");
  }
}
