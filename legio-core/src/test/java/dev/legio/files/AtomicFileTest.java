package dev.legio.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.testing.ForcedFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
  @TempDir Path dir;

  private List<String> folder(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void theNewFileAndThenItsFolderAreForcedToDiskSoThatAPowerCutKeepsTheRename() throws Exception {
    Path target = dir.resolve("memory/MEMORY.md");
    AtomicFile.write(target, "old\n");

    List<Path> forced = ForcedFiles.during(() -> AtomicFile.write(target, "new\n"));

    Path folder = target.getParent().toAbsolutePath().normalize();
    assertThat(forced).hasSize(2);
    assertThat(forced.get(0).getFileName().toString()).startsWith(".MEMORY.md.").endsWith(".tmp");
    assertThat(forced.get(1)).isEqualTo(folder);
  }

  @Test
  void theFoldersItCreatesAndTheFileAreTheirOwnersOnly() throws Exception {
    Path target = dir.resolve("memory/vorenus/MEMORY.md");

    AtomicFile.write(target, "private\n");

    assertThat(mode(dir.resolve("memory"))).isEqualTo("rwx------");
    assertThat(mode(target.getParent())).isEqualTo("rwx------");
    assertThat(mode(target)).isEqualTo("rw-------");
  }

  private static String mode(Path path) throws IOException {
    return java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(path));
  }

  @Test
  void writesTheFileAndItsFoldersAndLeavesNoTemporaryFile() throws Exception {
    Path target = dir.resolve("a/b/MEMORY.md");

    AtomicFile.write(target, "# Memory — vorenus\n");

    assertThat(Files.readString(target, StandardCharsets.UTF_8)).isEqualTo("# Memory — vorenus\n");
    assertThat(folder(target.getParent())).containsExactly("MEMORY.md");
  }

  @Test
  void replacesAnExistingFileWhole() throws Exception {
    Path target = dir.resolve("entry.xml");
    Files.writeString(target, "a much longer old content than the new one");

    AtomicFile.write(target, new byte[] {'n', 'e', 'w'});

    assertThat(Files.readString(target)).isEqualTo("new");
    assertThat(folder(dir)).containsExactly("entry.xml");
  }

  @Test
  void aTargetThatCannotBeReplacedIsAnErrorAndLeavesNoTemporaryFile() throws Exception {
    Path target = Files.createDirectories(dir.resolve("taken"));
    Files.writeString(target.resolve("inside"), "x");

    assertThatThrownBy(() -> AtomicFile.write(target, "text")).isInstanceOf(IOException.class);

    assertThat(folder(dir)).containsExactly("taken");
  }

  @Test
  void aReaderSeesTheOldFileOrTheNewOneNeverPartOfOne() throws Exception {
    Path target = dir.resolve("big.txt");
    String a = "a".repeat(200_000);
    String b = "b".repeat(300_000);
    AtomicFile.write(target, a);
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    Future<List<String>> reads =
        pool.submit(
            () -> {
              List<String> bad = new ArrayList<>();
              while (writing.get()) {
                String seen = Files.readString(target);
                if (!seen.equals(a) && !seen.equals(b)) {
                  bad.add(seen.length() + " characters");
                }
              }
              return bad;
            });
    for (int i = 0; i < 30; i++) {
      AtomicFile.write(target, i % 2 == 0 ? b : a);
    }
    writing.set(false);
    assertThat(reads.get(60, TimeUnit.SECONDS)).isEmpty();
    pool.shutdown();
  }
}
