package dev.legio.memoria;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;

/**
 * Memoria in a PostgreSQL praetorium; the "other node" is a second store, with a connection pool of
 * its own, on the same database, as a second {@code legio serve} would open it. One schema serves
 * the class; each test starts with empty memoria tables.
 */
class PostgresMemoriaTest extends MemoriaContract {
  private static PostgresTestDatabase database;
  private final List<LegioStore> stores = new ArrayList<>();

  static LegioStore open(PostgresTestDatabase database, MutableClock clock) {
    return LegioStore.openPostgres(
        new JdbcMessageLogs.PostgresOptions(database.url(), null, null, 1 << 20, 4, clock));
  }

  @Override
  protected MemoryStore openStore(Path castra) {
    boolean first = stores.isEmpty();
    if (database == null) {
      database = PostgresTestDatabase.migrated();
    }
    LegioStore store = open(database, clock);
    stores.add(store);
    if (first) {
      try (Connection c = DriverManager.getConnection(database.url());
          Statement s = c.createStatement()) {
        s.execute("DELETE FROM memoria_notes");
        s.execute("DELETE FROM memoria_entries");
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException(e);
      }
    }
    return store.memoria();
  }

  @Override
  protected MemoryStore openOtherNode(Path castra) {
    return openStore(castra);
  }

  @Override
  protected void closeStores() {
    stores.forEach(LegioStore::close);
  }

  @AfterAll
  static void dropSchema() {
    if (database != null) {
      database.close();
      database = null;
    }
  }
}
