package dev.legio.session;

import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresStores;
import dev.legio.testing.TcpProxy;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** The usage of turns, in PostgreSQL (reached through a proxy the tests can cut off). */
class PostgresTurnUsageTest extends TurnUsageContract {
  private final PostgresStores stores = new PostgresStores();
  private final TcpProxy proxy = PostgresStores.proxyToServer();

  @Override
  LegioStore openStore(Path dir, MutableClock clock) {
    return stores.openThrough(proxy, clock);
  }

  /** The server is out of reach: connections through the proxy closed, new ones refused. */
  @Override
  AutoCloseable databaseFault() {
    proxy.cut();
    return proxy::restore;
  }

  @AfterEach
  void dropSchema() {
    proxy.close();
    stores.close();
  }
}
