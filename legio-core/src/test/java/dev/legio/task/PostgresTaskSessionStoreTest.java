package dev.legio.task;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Path;

class PostgresTaskSessionStoreTest extends TaskSessionStoreContract {
  private PostgresTestDatabase database;

  @Override
  protected LegioStore openStore(Path dir, MutableClock clock) {
    database = PostgresTestDatabase.migrated();
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 4096, 4, clock));
  }

  @Override
  protected void afterStoreClosed() {
    if (database != null) {
      database.close();
      database = null;
    }
  }
}
