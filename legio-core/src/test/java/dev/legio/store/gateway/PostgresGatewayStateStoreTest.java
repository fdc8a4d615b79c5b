package dev.legio.store.gateway;

import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.PostgresStores;

class PostgresGatewayStateStoreTest extends GatewayStateStoreContract {
  private final PostgresStores stores = new PostgresStores();

  @Override
  protected LegioStore open(MutableClock clock) {
    return stores.open(clock);
  }

  @Override
  protected void afterStoreClosed() {
    stores.close();
  }
}
