package dev.legio.session;

import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresStores;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** The usage of turns, in PostgreSQL. */
class PostgresTurnUsageTest extends TurnUsageContract {
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
