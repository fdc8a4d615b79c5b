package dev.legio.store;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

class SqliteWriteRefusalTest extends WriteRefusalContract {
  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(dir.resolve("praetorium.db"), 1 << 20, false, 4, clock));
  }

  @Override
  Connection connect() throws Exception {
    return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("praetorium.db"));
  }

  @Override
  void refuseByTrigger(Connection c, String table, String column, String value) throws Exception {
    refuse(c, table, column, value);
  }

  @Override
  void refuse(Connection c, String table, String column, String value) throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TRIGGER refuse_%1$s BEFORE INSERT ON %2$s WHEN NEW.%3$s = '%1$s'"
                  .formatted(value, table, column)
              + " BEGIN SELECT RAISE(ABORT, 'refuse_%s: the test refuses this row'); END"
                  .formatted(value));
    }
  }
}
