package dev.legio.session;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** The same rules with the log and the leases in PostgreSQL. */
class PostgresRequestKeyTest extends RequestKeyContract {
  private PostgresTestDatabase database;

  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    if (database == null) {
      database = PostgresTestDatabase.create();
    }
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 1 << 20, 4, clock));
  }

  @AfterEach
  void dropSchema() {
    if (database != null) {
      database.close();
      database = null;
    }
  }
}
