package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.LegioPraetoriumFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legio log import} as a script runs it, its output going to files: plain lines, no progress
 * bar, and a missing file said in words.
 */
class LogImportProcessTest {
  @TempDir Path dir;

  @Test
  void intoAFileTheImportWritesNoProgressBarAndNoEscapeCodes() throws Exception {
    Path legacy = dir.resolve("old.db");
    LegioPraetoriumFile.create(legacy, LegioPraetoriumFile.caesarToVorenus(300));
    Path ws = Workspaces.init(dir, "legion");

    LegioProcess imported = importInto(ws, legacy);

    assertThat(imported.exitCode()).as(imported.stderr()).isZero();
    assertThat(imported.stdout()).contains("imported 300 messages");
    assertThat(imported.stderr())
        .doesNotContain("\u001b")
        .doesNotContain("\r")
        .doesNotContain("Importing");
  }

  @Test
  void aMissingFileIsSaidInWordsWithoutAJavaClassName() throws Exception {
    Path ws = Workspaces.init(dir, "legion");

    LegioProcess missing = importInto(ws, dir.resolve("nothere.db"));

    assertThat(missing.exitCode()).isNotZero();
    assertThat(missing.stderr())
        .contains("nothere.db")
        .contains("does not exist")
        .doesNotContain("java.")
        .doesNotContain("Exception");
  }

  /** Runs {@code legio log import FILE} into {@code ws}, its output going to files. */
  private LegioProcess importInto(Path ws, Path file) {
    return LegioProcess.run(
        dir,
        Map.of(),
        Duration.ofSeconds(60),
        "--castra",
        ws.toString(),
        "log",
        "import",
        file.toString());
  }
}
