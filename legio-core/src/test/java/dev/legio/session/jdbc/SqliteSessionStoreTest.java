package dev.legio.session.jdbc;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteSessionStoreTest extends SessionStoreContract {
  @TempDir Path dir;

  @Override
  protected LegioStore open(MutableClock clock) {
    return openAt(dir.resolve("castra/praetorium.db"));
  }

  @Override
  protected EmptyDatabase emptyDatabase() {
    Path file = dir.resolve("older/praetorium.db");
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new EmptyDatabase("sqlite", "jdbc:sqlite:" + file, "4", () -> openAt(file));
  }

  private LegioStore openAt(Path file) {
    return LegioStore.openSqlite(new JdbcMessageLogs.SqliteOptions(file, 4096, false, 4, clock));
  }
}
