package dev.legio.transcript;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;

class SqliteSessionHistoryEditorTest extends SessionHistoryEditorContract {
  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(dir.resolve("praetorium.db"), 1 << 20, false, 4, clock));
  }
}
