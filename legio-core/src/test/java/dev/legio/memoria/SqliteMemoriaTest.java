package dev.legio.memoria;

import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.store.LegioStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Memoria in a SQLite praetorium; the "other node" is a second store opened on the same file. */
class SqliteMemoriaTest extends MemoriaContract {
  private final List<LegioStore> stores = new ArrayList<>();

  static LegioStore open(Path castra, dev.legio.testing.MutableClock clock) {
    return LegioStore.openSqlite(
        new JdbcMessageLogs.SqliteOptions(
            castra.resolve("praetorium.db"), 1 << 20, false, 4, clock));
  }

  @Override
  protected MemoryStore openStore(Path castra) {
    LegioStore store = open(castra, clock);
    stores.add(store);
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
}
