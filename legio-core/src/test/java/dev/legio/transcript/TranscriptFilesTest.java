package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transcripts are never read or appended to through a symbolic link. */
class TranscriptFilesTest {
  private static final String ID = "0b1c2d3e-4f50-4617-8a9b-0c1d2e3f4a5b";
  private static final String OTHER = "1b1c2d3e-4f50-4617-8a9b-0c1d2e3f4a5b";

  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-04-03T10:00:00Z");

  private FileTranscriptStore store() {
    return new FileTranscriptStore(dir.resolve("projects"), dir.resolve("ws"), clock);
  }

  /** A transcript outside the folder, and {@code <ID>.jsonl} a link to it. */
  private Path linkedTranscript(FileTranscriptStore store) throws Exception {
    store.append(OTHER, List.of(NewEntry.agentName("pullo"), NewEntry.user(null, "hello")));
    Path outside = dir.resolve("outside.jsonl");
    Files.copy(store.file(OTHER), outside);
    Files.createSymbolicLink(store.file(ID), outside);
    return outside;
  }

  @Test
  void aLinkedTranscriptIsNotReadAndTheMessageSaysWhatToDo() throws Exception {
    FileTranscriptStore store = store();
    linkedTranscript(store);

    assertThatThrownBy(() -> store.load(ID))
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining(store.file(ID) + " is a symbolic link")
        .hasMessageContaining("replace it with the file itself or remove it");
  }

  @Test
  void nothingIsAppendedThroughALinkNeitherAnAppendNorAChainedOne() throws Exception {
    FileTranscriptStore store = store();
    Path outside = linkedTranscript(store);
    byte[] before = Files.readAllBytes(outside);

    assertThatThrownBy(() -> store.append(ID, List.of(NewEntry.user(null, "more"))))
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining("is a symbolic link");
    assertThatThrownBy(
            () ->
                store.appendToChain(
                    ID, (exists, tip) -> List.of(NewEntry.tombstone(UUID.randomUUID()))))
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining("is a symbolic link");
    assertThat(Files.readAllBytes(outside)).isEqualTo(before);
  }

  @Test
  void aLinkedTranscriptIsLeftOutOfTheListingAndNamed() throws Exception {
    FileTranscriptStore store = store();
    linkedTranscript(store);

    TranscriptListing listing = store.listing();

    assertThat(listing.sessions()).extracting(TranscriptInfo::sessionId).containsExactly(OTHER);
    assertThat(listing.skipped()).hasSize(1);
    assertThat(listing.skipped().get(0)).startsWith(store.file(ID) + " is a symbolic link");
  }

  @Test
  void aLinkedLaterPartIsRefusedToo() throws Exception {
    FileTranscriptStore store = store();
    store.append(ID, List.of(NewEntry.user(null, "first")));
    Path outside = dir.resolve("outside.jsonl");
    Files.writeString(outside, "");
    Files.createSymbolicLink(store.folder().resolve(ID + "_part2.jsonl"), outside);

    assertThatThrownBy(() -> store.load(ID)).hasMessageContaining("is a symbolic link");
    assertThatThrownBy(() -> store.append(ID, List.of(NewEntry.user(null, "more"))))
        .hasMessageContaining("is a symbolic link");
    assertThat(Files.size(outside)).isZero();
  }
}
