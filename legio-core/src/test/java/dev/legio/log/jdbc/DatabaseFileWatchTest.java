package dev.legio.log.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.legio.log.Audience;
import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogException;
import dev.legio.log.NewMessage;
import dev.legio.testing.MutableClock;
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

  @Test
  void aWriteAfterTheDatabaseFileWasDeletedFailsSayingSoInsteadOfBeingAnsweredAsStored()
      throws Exception {
    Path file = dir.resolve("praetorium.db");
    try (MessageLog log =
        JdbcMessageLogs.openSqlite(
            new JdbcMessageLogs.SqliteOptions(
                file, 4096, false, 2, MutableClock.at("2026-02-15T12:00:00Z")))) {
      log.append(NewMessage.of("caesar", Audience.of("vorenus"), "before"));
      for (String suffix : new String[] {"", "-wal", "-shm"}) {
        Files.deleteIfExists(dir.resolve("praetorium.db" + suffix));
      }
      assertThatThrownBy(() -> log.append(NewMessage.of("caesar", Audience.of("vorenus"), "after")))
          .isInstanceOf(MessageLogException.class)
          .hasMessageContaining("was deleted or moved while Legio had it open");
    }
  }
}
