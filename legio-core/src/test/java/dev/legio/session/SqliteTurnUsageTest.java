package dev.legio.session;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

class SqliteTurnUsageTest extends TurnUsageContract {
  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            dir.resolve("castra/praetorium.db"), 1 << 20, false, 4, clock));
  }

  /** Another program holds the database's write lock (an open write transaction). */
  @Override
  AutoCloseable databaseFault() throws Exception {
    Connection other =
        DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("castra/praetorium.db"));
    try (Statement s = other.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
    }
    return () -> {
      try (Statement s = other.createStatement()) {
        s.execute("ROLLBACK");
      } finally {
        other.close();
      }
    };
  }
}
