package dev.legio.memoria;

import dev.legio.store.LegioStore;
import java.nio.file.Path;

/** {@link MemoryToolsTest}'s access matrix with memoria in the database (SQLite). */
class SqliteMemoryToolsTest extends MemoryToolsTest {
  private LegioStore store;

  @Override
  MemoryStore openStore(Path castra) {
    store = SqliteMemoriaTest.open(castra, clock);
    return store.memoria();
  }

  @Override
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }
}
