package dev.legio.store;

import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresStores;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;

class PostgresWriteRefusalTest extends WriteRefusalContract {
  private final PostgresStores stores = new PostgresStores();

  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return stores.open(clock);
  }

  @Override
  Connection connect() throws Exception {
    return DriverManager.getConnection(stores.url());
  }

  @Override
  void refuse(Connection c, String table, String column, String value) throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute(
          "ALTER TABLE %2$s ADD CONSTRAINT refuse_%1$s CHECK (%3$s <> '%1$s') NOT VALID"
              .formatted(value, table, column));
    }
  }

  @Override
  void refuseByTrigger(Connection c, String table, String column, String value) throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute(
          ("CREATE FUNCTION refuse_%1$s() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                  + " IF NEW.%2$s = '%1$s' THEN"
                  + " RAISE EXCEPTION 'refuse_%1$s: the test refuses this row'; END IF;"
                  + " RETURN NEW; END $$")
              .formatted(value, column));
      s.execute(
          "CREATE TRIGGER refuse_%1$s BEFORE INSERT ON %2$s FOR EACH ROW EXECUTE FUNCTION refuse_%1$s()"
              .formatted(value, table));
    }
  }

  @AfterEach
  void dropSchema() {
    stores.close();
  }
}
