package dev.legio.session.jdbc;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteJobRunsTest extends JobRunsContract {
  @TempDir Path dir;

  @Override
  protected LegioStore open(MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            dir.resolve("castra/praetorium.db"), 4096, false, 4, clock));
  }
}
