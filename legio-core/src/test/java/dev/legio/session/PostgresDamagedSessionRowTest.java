package dev.legio.session;

import dev.legio.store.LegioStore;
import dev.legio.testing.HandEdits;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresStores;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** Damaged session rows, in PostgreSQL. */
class PostgresDamagedSessionRowTest extends DamagedSessionRowContract {
  private final PostgresStores stores = new PostgresStores();

  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return stores.open(clock);
  }

  @Override
  void handEdit(String sql) {
    HandEdits.postgres(stores.url(), sql);
  }

  @AfterEach
  void dropSchema() {
    stores.close();
  }
}
