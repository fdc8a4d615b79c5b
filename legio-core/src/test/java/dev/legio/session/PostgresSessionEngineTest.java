package dev.legio.session;

import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresStores;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** The same rules with session records, leases and the log in PostgreSQL. */
class PostgresSessionEngineTest extends SessionEngineContract {
  private final PostgresStores stores = new PostgresStores();

  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return stores.open(clock);
  }

  @AfterEach
  void dropSchema() {
    stores.close();
  }
}
