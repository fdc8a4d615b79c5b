package dev.legio.usage.jdbc;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;

class PostgresUsageLedgerTest extends UsageLedgerContract {
  private PostgresTestDatabase database;

  @Override
  protected LegioStore open(MutableClock clock) {
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
