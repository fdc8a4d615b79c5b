package dev.legio.log.jdbc;

import dev.legio.log.MessageLog;
import dev.legio.log.MessageLogContract;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteMessageLogTest extends MessageLogContract {
  @TempDir Path dir;

  @Override
  protected MessageLog open(MutableClock clock, long maxTextBytes) {
    return JdbcMessageLogs.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            dir.resolve("castra/praetorium.db"), maxTextBytes, false, 4, clock));
  }
}
