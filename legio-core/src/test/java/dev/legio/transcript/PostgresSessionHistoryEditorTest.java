package dev.legio.transcript;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** The same rules with the records and conversations in PostgreSQL. */
class PostgresSessionHistoryEditorTest extends SessionHistoryEditorContract {
  private PostgresTestDatabase database;

  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    database = PostgresTestDatabase.migrated();
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 1 << 20, 4, clock));
  }

  @AfterEach
  void dropSchema() {
    if (store != null) {
      store.close();
    }
    if (database != null) {
      database.close();
      database = null;
    }
  }
}
