package dev.legio.session;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;

class SqliteRequestKeyTest extends RequestKeyContract {
  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            dir.resolve("castra/praetorium.db"), 1 << 20, false, 4, clock));
  }
}
