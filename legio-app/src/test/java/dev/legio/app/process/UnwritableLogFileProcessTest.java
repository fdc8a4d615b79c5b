package dev.legio.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code [logging] file} Legio cannot write (here a folder): Legio says so once on standard error
 * and runs on without a log file, and its errors no longer send the user to that file.
 */
class UnwritableLogFileProcessTest {
  @TempDir Path dir;

  @Test
  void aLogFileThatIsAFolderIsSaidOnceAndNoErrorPointsToIt() throws Exception {
    Path ws = Workspaces.init(dir, "legion");
    Workspaces.edit(ws, "kind = \"auto\"", "kind = \"offline\"");
    Workspaces.edit(ws, "file = \"castra/logs/legio.log\"", "file = \"castra/logs\"");
    Path folder = ws.resolve("castra/logs");

    LegioProcess say =
        LegioProcess.run(
            dir, Map.of(), Duration.ofSeconds(60), "--castra", ws.toString(), "say", "@pullo hi");

    assertThat(say.exitCode()).as(say.stderr()).isZero();
    String warning =
        "legio: WARN: cannot write the log file "
            + folder
            + " ([logging] file in legio.toml): it is a folder. Legio runs without a log file";
    assertThat(say.stderr()).contains(warning);
    assertThat(say.stderr().split("cannot write the log file", -1)).hasSize(2);

    // An archive whose folder is a file: the prune fails, with no word of a log file.
    Path notAFolder = Files.writeString(dir.resolve("plain"), "x");
    LegioProcess prune =
        LegioProcess.run(
            dir,
            Map.of(),
            Duration.ofSeconds(60),
            "--castra",
            ws.toString(),
            "log",
            "prune",
            "--older-than",
            "0s",
            "--archive",
            notAFolder.resolve("archive.jsonl").toString());

    assertThat(prune.exitCode()).as(prune.stderr()).isEqualTo(1);
    assertThat(prune.stderr()).contains(warning).doesNotContain("details in the log file");
  }
}
