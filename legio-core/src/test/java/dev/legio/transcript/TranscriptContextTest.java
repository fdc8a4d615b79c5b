package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptContextTest {
  @TempDir Path dir;

  private FileTranscriptStore store() {
    return new FileTranscriptStore(
        dir, dir.resolve("project"), MutableClock.at("2026-04-03T10:00:00Z"));
  }

  private static String user(int n) {
    return "{\"type\":\"user\",\"uuid\":\"u"
        + n
        + "\",\"message\":{\"role\":\"user\",\"content\":\"question "
        + n
        + "\"}}";
  }

  /** An assistant line as Claude Code writes it. */
  private static String assistant(
      int n, String model, long input, long read, long write, long out) {
    return "{\"type\":\"assistant\",\"uuid\":\"a"
        + n
        + "\",\"message\":{\"id\":\"msg_"
        + n
        + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\""
        + model
        + "\",\"content\":[{\"type\":\"text\",\"text\":\"answer "
        + n
        + "\"}],\"usage\":{\"input_tokens\":"
        + input
        + ",\"cache_creation_input_tokens\":"
        + write
        + ",\"cache_read_input_tokens\":"
        + read
        + ",\"output_tokens\":"
        + out
        + ",\"service_tier\":\"standard\"}}}";
  }

  private TranscriptContext contextOf(String... lines) throws Exception {
    String id = "00000000-0000-4000-8000-" + String.format("%012d", lines.length);
    FileTranscriptStore store = store();
    Files.createDirectories(store.file(id).getParent());
    Files.writeString(store.file(id), String.join("\n", lines) + "\n");
    return store.info(id).context();
  }

  @Test
  void theFigureIsTheLastRealAnswersReadAndWrittenTokensWithItsModel() throws Exception {
    TranscriptContext context =
        contextOf(
            user(1),
            assistant(1, "claude-opus-4-1", 10, 0, 900, 40),
            user(2),
            assistant(2, "claude-opus-4-1", 1_500, 80_000, 2_000, 500),
            // An error Claude Code wrote itself, with zero usage: not a figure.
            assistant(3, "<synthetic>", 0, 0, 0, 0),
            "{\"type\":\"last-prompt\",\"lastPrompt\":\"question 2\"}");

    assertThat(context).isEqualTo(new TranscriptContext("claude-opus-4-1", 84_000));
  }

  @Test
  void aCompactionAfterTheLastAnswerLeavesNoFigure() throws Exception {
    assertThat(
            contextOf(
                user(1),
                assistant(1, "claude-opus-4-1", 100, 0, 0, 10),
                "{\"type\":\"summary\",\"uuid\":\"s1\",\"summary\":\"short\","
                    + "\"messagesCompacted\":2}"))
        .isNull();
    assertThat(
            contextOf(
                user(1),
                assistant(1, "claude-opus-4-1", 100, 0, 0, 10),
                "{\"type\":\"system\",\"uuid\":\"b1\",\"subtype\":\"compact_boundary\"}",
                user(2)))
        .isNull();
    // Other system entries are passed over.
    assertThat(
            contextOf(
                user(1),
                assistant(1, "claude-opus-4-1", 100, 0, 0, 10),
                "{\"type\":\"system\",\"uuid\":\"x1\",\"subtype\":\"informational\"}",
                "{\"type\":\"system\",\"uuid\":\"x2\",\"subtype\":\"informational\"}"))
        .isEqualTo(new TranscriptContext("claude-opus-4-1", 110));
  }

  @Test
  void answersWithoutUsageOrBeyondTheLookBackGiveNoFigure() throws Exception {
    assertThat(
            contextOf(
                user(1),
                "{\"type\":\"assistant\",\"uuid\":\"a1\",\"message\":{\"role\":\"assistant\","
                    + "\"content\":\"no usage here\"}}"))
        .isNull();

    List<String> lines = new ArrayList<>();
    lines.add(user(0));
    lines.add(assistant(0, "claude-opus-4-1", 100, 0, 0, 10));
    for (int i = 1; i <= TranscriptContext.LOOKBACK; i++) {
      lines.add(user(i));
    }
    assertThat(contextOf(lines.toArray(String[]::new))).isNull();
  }

  @Test
  void anAnswerWhoseBodyIsBrokenIsPassedOver() throws Exception {
    assertThat(
            contextOf(
                user(1),
                assistant(1, "claude-haiku-4-5", 7, 0, 0, 3),
                "{\"type\":\"assistant\",\"uuid\":\"a2\",\"message\":{\"model\":\"bad\\q\"}}"))
        .isEqualTo(new TranscriptContext("claude-haiku-4-5", 10));
  }
}
