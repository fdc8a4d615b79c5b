package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.longterm.MemoryExtractor.Outcome;
import dev.legio.testing.MutableClock;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.NewEntry;
import dev.legio.transcript.TranscriptEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExtractionGatesTest {
  @TempDir Path root;
  private final ExtractionGates gates = new ExtractionGates(4, 3);

  @ParameterizedTest(name = "{0} extractions, {1} tool calls since: {2}")
  @CsvSource({
    "0, 0, open",
    "1, 2, TOO_FEW_TOOL_CALLS",
    "1, 3, open",
    "5, 0, TOO_FEW_TOOL_CALLS",
    "5, 9, open",
  })
  void afterTheFirstExtractionEnoughToolCallsMustHaveBeenMade(
      int extractions, int toolCallsSince, String expected) {
    Optional<Outcome> closed =
        gates.toolCalls(new ExtractionState.Session(extractions, 0, toolCallsSince, 0));
    assertThat(closed.map(Enum::name).orElse("open")).isEqualTo(expected);
  }

  private static NewEntry.Message message(String role, ObjectNode... blocks) {
    ObjectNode message = JsonNodeFactory.instance.objectNode().put("role", role);
    message.putArray("content").addAll(List.of(blocks));
    return new NewEntry.Message(role, UUID.randomUUID(), null, message);
  }

  private static ObjectNode text(String text) {
    return JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text);
  }

  private static ObjectNode toolUse(String id) {
    return JsonNodeFactory.instance.objectNode().put("type", "tool_use").put("id", id);
  }

  private static ObjectNode toolResult(String id) {
    return JsonNodeFactory.instance.objectNode().put("type", "tool_result").put("tool_use_id", id);
  }

  private List<TranscriptEntry> transcript(NewEntry... entries) {
    FileTranscriptStore store =
        new FileTranscriptStore(
            root.resolve("transcripts"), root, MutableClock.at("2026-11-21T09:00:00Z"));
    String id = UUID.randomUUID().toString();
    List<NewEntry> all = new ArrayList<>(List.of(new NewEntry.AgentName("vorenus")));
    all.addAll(List.of(entries));
    store.append(id, all);
    return store.load(id).entries();
  }

  @Test
  void summariesCountTheMessagesTheyReplaced() {
    List<TranscriptEntry> three =
        transcript(message("user", text("a")), message("assistant", text("b")), message("user"));
    assertThat(ExtractionGates.countMessages(three)).isEqualTo(3);
    assertThat(gates.transcript(three)).contains(Outcome.TOO_FEW_MESSAGES);

    List<TranscriptEntry> summarised =
        transcript(
            new NewEntry.Summary(UUID.randomUUID(), null, "earlier rounds", 10),
            message("user", text("a")));
    assertThat(ExtractionGates.countMessages(summarised)).isEqualTo(11);
    assertThat(gates.transcript(summarised)).isEmpty();
  }

  @Test
  void aToolCallOfTheLastAssistantEntryWithoutItsResultIsPending() {
    ExtractionGates pendingOnly = new ExtractionGates(0, 3);
    NewEntry.Message u1 = message("user", text("a"));
    NewEntry.Message u2 = message("user", text("b"));
    assertThat(
            pendingOnly.transcript(
                transcript(u1, u2, message("assistant", text("looking"), toolUse("t1")))))
        .contains(Outcome.TOOL_CALL_PENDING);
    assertThat(
            pendingOnly.transcript(
                transcript(
                    u1,
                    u2,
                    message("assistant", toolUse("t1"), toolUse("t2")),
                    message("user", toolResult("t1")))))
        .contains(Outcome.TOOL_CALL_PENDING);
    assertThat(
            pendingOnly.transcript(
                transcript(
                    u1,
                    u2,
                    message("assistant", toolUse("t1"), toolUse("t2")),
                    message("user", toolResult("t1"), toolResult("t2")))))
        .isEmpty();
    // An earlier assistant entry's open call does not count: only the last one's.
    assertThat(
            pendingOnly.transcript(
                transcript(
                    message("assistant", toolUse("old")),
                    u1,
                    message("assistant", text("done")),
                    u2)))
        .isEmpty();
  }
}
