package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TranscriptStore#starts}: when each session started, read from its first lines, the same
 * instant its listing shows as created, and unchanged by what is appended or taken back later.
 */
class TranscriptStartsTest {
  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-04-03T10:00:00Z");

  private FileTranscriptStore store() {
    return new FileTranscriptStore(dir.resolve("projects"), dir.resolve("legion"), clock);
  }

  private static Map<String, Instant> starts(TranscriptStore store) {
    return store.starts().sessions().stream()
        .collect(
            Collectors.toMap(TranscriptStarts.Start::sessionId, TranscriptStarts.Start::started));
  }

  @Test
  void aSessionStartsAtItsFirstConversationLineWhateverComesAfter() throws Exception {
    FileTranscriptStore store = store();
    NewEntry.Message first = NewEntry.user(null, "hello");
    store.append("s-one", List.of(NewEntry.agentName("vorenus"), first));
    clock.advance(Duration.ofHours(1));
    store.append("s-two", List.of(NewEntry.user(null, "later")));
    clock.advance(Duration.ofHours(1));
    // Later lines, and the first message taken back, move no start.
    store.append(
        "s-one", List.of(NewEntry.user(first.uuid(), "more"), NewEntry.tombstone(first.uuid())));

    assertThat(starts(store))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "s-one", Instant.parse("2026-04-03T10:00:00Z"),
                "s-two", Instant.parse("2026-04-03T11:00:00Z")));
    assertThat(store.info("s-one").created()).isEqualTo(Instant.parse("2026-04-03T10:00:00Z"));
    assertThat(store.info("s-two").created()).isEqualTo(Instant.parse("2026-04-03T11:00:00Z"));
  }

  @Test
  void aTranscriptLegioBeganStartsAtTheSessionsCreationItsFirstLineCarries() throws Exception {
    FileTranscriptStore store = store();
    Instant created = Instant.parse("2026-04-03T09:59:58.123456789Z");
    // The session's first turn is written two seconds after its record was created.
    store.append(
        "s-one", List.of(NewEntry.agentName("vorenus", created), NewEntry.user(null, "hello")));

    Instant toTheMicrosecond = Instant.parse("2026-04-03T09:59:58.123456Z");
    assertThat(starts(store)).containsExactlyEntriesOf(Map.of("s-one", toTheMicrosecond));
    assertThat(store.info("s-one").created()).isEqualTo(toTheMicrosecond);
    assertThat(Files.readAllLines(store.file("s-one")).get(0))
        .contains("\"type\":\"agent-name\"", "\"timestamp\":\"2026-04-03T09:59:58.123456Z\"");
  }

  @Test
  void malformedAndMetadataLinesArePassedOverAndATranscriptWithoutATimeStartsAtItsFile()
      throws Exception {
    FileTranscriptStore store = store();
    Files.createDirectories(store.folder());
    Files.writeString(
        store.file("claude"),
        "{\"type\":\"summary\",\"summary\":\"no time\",\"leafUuid\":\"x\"}\n"
            + "{\"type\":\"user\",\"timestamp\":\"2026-01-01T00:00:00Z\"\n" // cut short by a crash
            + "{\"type\":\"user\",\"timestamp\":\"2026-01-01T00:00:01Z\"} trailing\n"
            + "{\"type\":\"progress\",\"timestamp\":\"2026-01-01T00:00:02Z\"}\n"
            + "{\"type\":\"user\",\"timestamp\":\"not a time\"}\n"
            + "{\"message\":{\"timestamp\":\"2026-01-01T00:00:03Z\"},\"type\":\"assistant\","
            + "\"timestamp\":\"2026-01-01T00:00:04Z\"}\n"
            + "{\"type\":\"user\",\"timestamp\":\"2026-01-01T00:00:05Z\"}\n");
    Files.writeString(store.file("untimed"), "{\"type\":\"agent-name\",\"agentName\":\"pullo\"}\n");
    Instant modified = Instant.parse("2026-02-02T00:00:00Z");
    Files.setLastModifiedTime(
        store.file("untimed"), java.nio.file.attribute.FileTime.from(modified));

    assertThat(starts(store))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("claude", Instant.parse("2026-01-01T00:00:04Z"), "untimed", modified));
    assertThat(store.info("claude").created()).isEqualTo(Instant.parse("2026-01-01T00:00:04Z"));
  }

  @Test
  void aLinkOrAFolderAmongTheTranscriptsIsNamedAndHidesNoOther() throws Exception {
    FileTranscriptStore store = store();
    store.append("s-one", List.of(NewEntry.user(null, "hello")));
    Files.createDirectories(store.folder().resolve("dir.jsonl"));
    Path outside = Files.writeString(dir.resolve("notes.txt"), "{}\n");
    Files.createSymbolicLink(store.file("linked"), outside);
    Files.writeString(store.folder().resolve("s-one_part2.jsonl"), "", StandardOpenOption.CREATE);

    TranscriptStarts starts = store.starts();

    assertThat(starts.sessions())
        .extracting(TranscriptStarts.Start::sessionId)
        .containsExactly("s-one");
    assertThat(starts.skipped()).hasSize(2);
    assertThat(String.join("\n", starts.skipped())).contains("dir.jsonl").contains("linked.jsonl");
  }
}
