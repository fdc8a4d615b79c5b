package dev.legio.store;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.session.LeaseHolder;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteNodeDirectoryTest extends NodeDirectoryContract {
  @TempDir Path dir;

  @Override
  protected LegioStore open(MutableClock clock, LeaseHolder process) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            dir.resolve("castra/praetorium.db"), 4096, false, 4, clock),
        process);
  }
}
