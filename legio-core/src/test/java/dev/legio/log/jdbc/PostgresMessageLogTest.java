package dev.legio.log.jdbc;

import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogContract;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import org.junit.jupiter.api.AfterEach;

class PostgresMessageLogTest extends MessageLogContract {
  private PostgresTestDatabase database;

  @Override
  protected MessageLog open(MutableClock clock, long maxTextBytes) {
    if (database == null) {
      database = PostgresTestDatabase.migrated();
    }
    return JdbcMessageLogs.openPostgres(
        new JdbcMessageLogs.PostgresOptions(database.url(), null, null, maxTextBytes, 4, clock));
  }

  @AfterEach
  void dropSchema() {
    if (database != null) {
      database.close();
      database = null;
    }
  }
}
