package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project folder is named as Claude Code names it, long paths included: past 200 characters it
 * is cut and given a hash of the path (the expected names were computed with Claude Code's own
 * sanitizePath, run in Node), so a workspace deep in the file system keeps its transcripts.
 */
class ProjectFolderNameTest {
  private static final String ID = "0b1c2d3e-4f50-4617-8a9b-0c1d2e3f4a5b";

  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-04-03T10:00:00Z");

  @Test
  void aShortPathIsItsCharactersWithEveryOtherThanALetterOrDigitAsADash() {
    assertThat(FileTranscriptStore.projectFolderName("/home/me/my project.v2"))
        .isEqualTo("-home-me-my-project-v2");
  }

  @Test
  void aPathOver200CharactersIsCutAndGivenClaudeCodesHashOfThePath() {
    String deep =
        "/tmp/legio/" + "a".repeat(120) + "/" + "b".repeat(120) + "/ws \u00e9\uD83D\uDE00";
    assertThat(FileTranscriptStore.projectFolderName(deep))
        .isEqualTo("-tmp-legio-" + "a".repeat(120) + "-" + "b".repeat(68) + "-l88byi");
    assertThat(FileTranscriptStore.projectFolderName("/srv/" + "x".repeat(300)))
        .isEqualTo("-srv-" + "x".repeat(195) + "-9owyih");
    assertThat(FileTranscriptStore.projectFolderName("/" + "y".repeat(199))).hasSize(200);
  }

  @Test
  void aWorkspaceWithAPathOver255CharactersKeepsItsTranscripts() throws Exception {
    Path workspace = dir.resolve("a".repeat(120)).resolve("b".repeat(120)).resolve("ws");
    FileTranscriptStore store =
        new FileTranscriptStore(dir.resolve("transcripts"), workspace, clock);

    store.append(ID, List.of(NewEntry.agentName("vorenus"), NewEntry.user(null, "hello")));

    assertThat(store.folder().getFileName().toString()).hasSizeLessThanOrEqualTo(207);
    assertThat(Files.readString(store.file(ID))).contains("hello");
    assertThat(store.list()).extracting(TranscriptInfo::owner).containsExactly("vorenus");
  }

  @Test
  void aTranscriptsFolderThatCannotBeCreatedSaysWhatToSet() throws Exception {
    Path file = Files.writeString(dir.resolve("transcripts"), "a file where a folder should be");
    FileTranscriptStore store = new FileTranscriptStore(file, dir.resolve("ws"), clock);

    assertThatThrownBy(() -> store.append(ID, List.of(NewEntry.user(null, "hello"))))
        .isInstanceOf(TranscriptException.class)
        .hasMessageStartingWith("cannot create the transcripts folder " + store.folder())
        .hasMessageEndingWith(
            "set [transcripts] project in legio.toml to a short folder name such as \"legion\","
                + " or [transcripts] dir to a folder Legio can write");
  }
}
