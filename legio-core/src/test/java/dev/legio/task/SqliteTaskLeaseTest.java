package dev.legio.task;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;

class SqliteTaskLeaseTest extends TaskLeaseContract {
  @Override
  protected LegioStore openStore(Path dir, MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(dir.resolve("praetorium.db"), 4096, false, 4, clock));
  }
}
