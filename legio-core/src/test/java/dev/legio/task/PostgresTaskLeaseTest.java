package dev.legio.task;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Path;

class PostgresTaskLeaseTest extends TaskLeaseContract {
  private PostgresTestDatabase database;

  @Override
  protected LegioStore openStore(Path dir, MutableClock clock) {
    database = PostgresTestDatabase.migrated();
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 4096, 8, clock));
  }

  @Override
  protected void afterStoresClosed() {
    if (database != null) {
      database.close();
      database = null;
    }
  }
}
