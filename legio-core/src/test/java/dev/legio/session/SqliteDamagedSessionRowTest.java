package dev.legio.session;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.HandEdits;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;

/** Damaged session rows, in SQLite. */
class SqliteDamagedSessionRowTest extends DamagedSessionRowContract {
  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(file(), 1 << 20, false, 4, clock));
  }

  @Override
  void handEdit(String sql) {
    HandEdits.sqlite(file(), sql);
  }

  private Path file() {
    return dir.resolve("castra/praetorium.db");
  }
}
