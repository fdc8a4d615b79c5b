package dev.legio.store;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.session.LeaseHolder;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;

/** Runs under CI=true (fails there without a server); elsewhere skipped without one. */
class PostgresNodeDirectoryTest extends NodeDirectoryContract {
  private PostgresTestDatabase database;

  @Override
  protected LegioStore open(MutableClock clock, LeaseHolder process) {
    if (database == null) {
      database = PostgresTestDatabase.migrated();
    }
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 4096, 4, clock), process);
  }

  @Override
  protected void afterStoresClosed() {
    if (database != null) {
      database.close();
      database = null;
    }
  }
}
