package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.MutableClock;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.NewEntry;
import dev.legio.transcript.TranscriptInfo;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptExcerptsTest {
  @TempDir Path root;
  private final MutableClock clock = MutableClock.at("2026-11-21T09:30:00Z");
  private FileTranscriptStore store;
  private TranscriptExcerpts excerpts;
  private final List<String> warnings = new ArrayList<>();

  @BeforeEach
  void setUp() {
    store = new FileTranscriptStore(root.resolve("transcripts"), root.resolve("cwd"), clock);
    excerpts = new TranscriptExcerpts(store);
  }

  private TranscriptInfo session(String id, NewEntry... entries) {
    store.append(id, List.of(entries));
    return info(id);
  }

  private static TranscriptInfo info(String id) {
    Instant at = Instant.parse("2026-11-21T09:30:00Z");
    return new TranscriptInfo(id, "vorenus", 1, at, at, 1, 1);
  }

  private static NewEntry.Message user(String text) {
    com.fasterxml.jackson.databind.node.ObjectNode message =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    message.put("role", "user").put("content", text);
    return new NewEntry.Message("user", UUID.randomUUID(), null, message);
  }

  private static NewEntry.Message assistant(String text) {
    com.fasterxml.jackson.databind.node.ObjectNode message =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    message.put("role", "assistant");
    message.putArray("content").addObject().put("type", "text").put("text", text);
    return new NewEntry.Message("assistant", UUID.randomUUID(), null, message);
  }

  private static NewEntry.Message toolUseOnly() {
    com.fasterxml.jackson.databind.node.ObjectNode message =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    message.put("role", "assistant");
    message.putArray("content").addObject().put("type", "tool_use").put("name", "memoria_read");
    return new NewEntry.Message("assistant", UUID.randomUUID(), null, message);
  }

  @Test
  void turnsAndSummariesWithTextAreLinesWithTheirDayAndRole() {
    TranscriptInfo s =
        session(
            "s1",
            new NewEntry.AgentName("vorenus"),
            user("  Scout the north road  "),
            toolUseOnly(),
            assistant("The road is clear."),
            new NewEntry.Summary(UUID.randomUUID(), null, "Vorenus scouted the road.", 2));

    assertThat(excerpts.of(List.of(s), warnings))
        .containsExactly(
            new ConsolidationModel.Excerpt(
                "s1",
                "[2026-11-21] user: Scout the north road\n"
                    + "[2026-11-21] assistant: The road is clear.\n"
                    + "[2026-11-21] summary: Vorenus scouted the road.\n"));
    assertThat(warnings).isEmpty();
  }

  @Test
  void eachTranscriptGivesItsEndWithinItsShareAndTheTotalBudget() {
    String line = "x".repeat(989); // "[2026-11-21] user: " (19) + 989 + "\n" = 1,009 characters
    List<TranscriptInfo> sessions = new ArrayList<>();
    for (int s = 0; s < 5; s++) {
      List<NewEntry> entries = new ArrayList<>();
      for (int i = 0; i < 15; i++) {
        entries.add(user(i == 14 ? "last of " + s + " " + line : line));
      }
      sessions.add(session("s" + s, entries.toArray(NewEntry[]::new)));
    }

    List<ConsolidationModel.Excerpt> out = excerpts.of(sessions, warnings);

    assertThat(out)
        .extracting(e -> e.text().length())
        .containsExactly(
            TranscriptExcerpts.EACH_CHARS,
            TranscriptExcerpts.EACH_CHARS,
            TranscriptExcerpts.EACH_CHARS,
            TranscriptExcerpts.TOTAL_CHARS - 3 * TranscriptExcerpts.EACH_CHARS);
    assertThat(out)
        .extracting(ConsolidationModel.Excerpt::sessionId)
        .containsExactly("s0", "s1", "s2", "s3");
    assertThat(out.get(3).text()).endsWith("last of 3 " + line + "\n");
  }

  @Test
  void anUnreadableTranscriptIsSkippedWithAWarningAndAnEmptyOneCostsNothing() {
    TranscriptInfo empty = session("empty", new NewEntry.AgentName("vorenus"), toolUseOnly());
    TranscriptInfo good = session("good", user("Hold the bridge"));

    List<ConsolidationModel.Excerpt> out =
        excerpts.of(List.of(info("missing"), empty, good), warnings);

    assertThat(out).extracting(ConsolidationModel.Excerpt::sessionId).containsExactly("good");
    assertThat(warnings).singleElement().asString().startsWith("transcript missing skipped: ");
  }
}
