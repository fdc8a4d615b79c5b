package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseFileWatchTest {
  @TempDir Path dir;

  @Test
  void aFileReplacedOrDeletedUnderTheWatchIsReportedAndAFileWrittenInPlaceIsNot() throws Exception {
    Path file = dir.resolve("praetorium.db");
    Files.writeString(file, "one");
    DatabaseFileWatch watch = DatabaseFileWatch.of(file);
    Files.writeString(file, "one, two"); // written in place: the same file
    assertThat(watch.problem()).isEmpty();

    Path copy = dir.resolve("copy.db");
    Files.writeString(copy, "restored");
    Files.move(copy, file, StandardCopyOption.REPLACE_EXISTING);
    assertThat(watch.problem()).hasValueSatisfying(p -> assertThat(p).contains("was replaced"));

    Files.delete(file);
    assertThat(watch.problem())
        .hasValueSatisfying(p -> assertThat(p).contains(file.toString()).contains("deleted"));
  }
}
