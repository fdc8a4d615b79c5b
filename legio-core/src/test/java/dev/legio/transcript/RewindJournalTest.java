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

/** {@link RewindJournal}'s notes on disk. */
class RewindJournalTest {
  private static final String ID = "0b1c2d3e-4f50-4617-8a9b-0c1d2e3f4a5b";

  @TempDir Path dir;

  private RewindJournal journal() {
    return RewindJournal.beside(
        new FileTranscriptStore(
            dir.resolve("projects"), dir, MutableClock.at("2026-04-03T10:00:00Z")));
  }

  @Test
  void aNoteIsReadBackAsItWasDecided() {
    RewindJournal journal = journal();
    RewindJournal.Note note =
        new RewindJournal.Note(ID, true, "from-1", null, List.of(UUID.randomUUID()));

    journal.decide(note);

    assertThat(journal.read(ID)).isEqualTo(note);
    journal.forget(ID);
    assertThat(journal.read(ID)).isNull();
  }

  @Test
  void aNoteThatIsASymbolicLinkIsRefusedWithoutReadingItsTarget() throws Exception {
    RewindJournal journal = journal();
    Path elsewhere = Files.writeString(dir.resolve("secret.txt"), "{\"session\":\"" + ID + "\"}");
    Path note = journal.noteOf(ID);
    Files.createDirectories(note.getParent());
    Files.createSymbolicLink(note, elsewhere);

    assertThatThrownBy(() -> journal.read(ID))
        .isInstanceOf(TranscriptException.class)
        .hasMessageContaining("is a symbolic link")
        .hasMessageContaining("move it away");
  }
}
