package dev.legio.session.jdbc;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;

class PostgresSessionStoreTest extends SessionStoreContract {
  private PostgresTestDatabase database;
  private PostgresTestDatabase older;

  @Override
  protected LegioStore open(MutableClock clock) {
    if (database == null) {
      database = PostgresTestDatabase.migrated();
    }
    return openAt(database);
  }

  @Override
  protected EmptyDatabase emptyDatabase() {
    if (older == null) {
      older = PostgresTestDatabase.create();
    }
    PostgresTestDatabase at = older;
    return new EmptyDatabase("postgres", at.url(), "3", () -> openAt(at));
  }

  private LegioStore openAt(PostgresTestDatabase at) {
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(at.url(), null, null, 4096, 4, clock));
  }

  @Override
  protected void afterStoresClosed() {
    try {
      if (database != null) {
        database.close();
        database = null;
      }
    } finally {
      if (older != null) {
        older.close();
        older = null;
      }
    }
  }
}
