package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One damaged transcript never hides the others in a listing. */
class TranscriptListingTest {
  private static final String FIRST = "0b1c2d3e-4f50-4617-8a9b-0c1d2e3f4a5b";
  private static final String SECOND = "1b1c2d3e-4f50-4617-8a9b-0c1d2e3f4a5b";

  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-04-03T10:00:00Z");

  private FileTranscriptStore store() {
    return new FileTranscriptStore(dir.resolve("projects"), dir.resolve("ws"), clock);
  }

  private static void session(FileTranscriptStore store, String id, String owner) {
    NewEntry.Message first = NewEntry.user(null, "first of " + owner);
    store.append(
        id,
        List.of(
            NewEntry.agentName(owner), first, NewEntry.user(first.uuid(), "second of " + owner)));
  }

  @Test
  void aLineThatIsNotUtf8InTheMiddleOfATranscriptIsSkippedCountedAndTheRestListed()
      throws Exception {
    FileTranscriptStore store = store();
    session(store, FIRST, "vorenus");
    session(store, SECOND, "pullo");
    Path file = store.file(FIRST);
    List<String> lines = Files.readAllLines(file);
    byte[] bad =
        "{\"type\":\"user\",\"uuid\":\"bad\",\"note\":\"caf\u00e9\"}".getBytes("ISO-8859-1");
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      if (i == 1) {
        out.writeBytes(bad);
        out.write('\n');
      }
      out.writeBytes(lines.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      out.write('\n');
    }
    Files.write(file, out.toByteArray());

    TranscriptListing listing = store.listing();
    assertThat(listing.sessions())
        .extracting(TranscriptInfo::owner)
        .containsExactlyInAnyOrder("vorenus", "pullo");
    assertThat(listing.skipped()).isEmpty();
    Transcript t = store.load(FIRST);
    assertThat(t.entries())
        .extracting(TranscriptEntry::text)
        .containsExactly("first of vorenus", "second of vorenus");
    assertThat(t.report().malformedLines()).isEqualTo(1);
    assertThat(store.prune(java.time.Instant.now().plusSeconds(3600))).hasSize(2);
  }

  @Test
  void aFolderNamedLikeATranscriptIsNamedAsSkippedAndTheRestListed() throws Exception {
    FileTranscriptStore store = store();
    session(store, FIRST, "vorenus");
    Path folder = store.folder().resolve(SECOND + ".jsonl");
    Files.createDirectories(folder);

    TranscriptListing listing = store.listing();

    assertThat(listing.sessions()).extracting(TranscriptInfo::owner).containsExactly("vorenus");
    assertThat(listing.skipped())
        .containsExactly(
            folder + " is not a regular file (a folder?); move it out of the transcripts folder");
    assertThat(store.list()).hasSize(1);
  }

  @Test
  void aSessionWhosePartCannotBeReadIsNamedAsSkippedAndTheRestListed() throws Exception {
    FileTranscriptStore store = store();
    session(store, FIRST, "vorenus");
    session(store, SECOND, "pullo");
    Path part2 = store.folder().resolve(SECOND + "_part2.jsonl");
    Files.createDirectories(part2); // a folder where its second part should be

    List<String> owners = new ArrayList<>();
    TranscriptListing listing = store.listing();
    listing.sessions().forEach(i -> owners.add(i.owner()));

    assertThat(owners).containsExactly("vorenus");
    assertThat(listing.skipped()).hasSize(2);
    assertThat(listing.skipped().get(0)).startsWith(part2 + " is not a regular file");
    assertThat(listing.skipped().get(1))
        .startsWith("session " + SECOND + " left out: " + part2 + " is not a regular file");
  }
}
