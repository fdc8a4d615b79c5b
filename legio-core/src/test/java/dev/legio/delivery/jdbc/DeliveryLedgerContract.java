package dev.legio.delivery.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.delivery.DeliveryLedger;
import dev.legio.store.LegioStore;
import dev.legio.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link DeliveryLedger} must have (the rules in its Javadoc), run on SQLite
 * and PostgreSQL by the subclasses.
 */
public abstract class DeliveryLedgerContract {
  private static final Duration DAY = Duration.ofDays(1);
  protected final MutableClock clock = MutableClock.at("2026-11-20T10:00:00.123456Z");
  private LegioStore store;

  /** Opens a store on the database under test (the same one each call, after the first). */
  protected abstract LegioStore open(MutableClock clock);

  /** Runs after the last store is closed (to drop a test schema, say). */
  protected void afterStoreClosed() {}

  @BeforeEach
  void openStore() {
    store = open(clock);
  }

  @AfterEach
  void close() {
    try {
      if (store != null) {
        store.close();
      }
    } finally {
      afterStoreClosed();
    }
  }

  @Test
  void anEventCountsAsFirstOnceAndOtherSourcesAreApart() {
    DeliveryLedger ledger = store.deliveries();
    assertThat(ledger.firstDelivery("slack", "Ev1", clock.instant(), DAY)).isTrue();
    assertThat(ledger.firstDelivery("slack", "Ev1", clock.instant(), DAY)).isFalse();
    assertThat(ledger.firstDelivery("discord", "Ev1", clock.instant(), DAY)).isTrue();
    assertThat(ledger.firstDelivery("slack", "Ev2", clock.instant(), DAY)).isTrue();
  }

  @Test
  void aSeenEventIsStillSeenAfterTheStoreIsReopened() {
    assertThat(store.deliveries().firstDelivery("slack", "Ev1", clock.instant(), DAY)).isTrue();
    store.close();
    store = open(clock);
    assertThat(store.deliveries().firstDelivery("slack", "Ev1", clock.instant(), DAY)).isFalse();
  }

  @Test
  void anExpiredRecordCountsAsNewAndIsDeletedByTheCleanup() {
    DeliveryLedger ledger = store.deliveries();
    assertThat(ledger.firstDelivery("slack", "Ev1", clock.instant(), DAY)).isTrue();
    assertThat(ledger.firstDelivery("slack", "Ev2", clock.instant(), DAY.multipliedBy(3))).isTrue();
    clock.advance(DAY.minusSeconds(1));
    assertThat(ledger.firstDelivery("slack", "Ev1", clock.instant(), DAY)).isFalse();
    assertThat(ledger.deleteExpired(clock.instant())).isZero();
    clock.advance(Duration.ofSeconds(1));
    assertThat(ledger.deleteExpired(clock.instant())).isEqualTo(1);
    assertThat(ledger.firstDelivery("slack", "Ev1", clock.instant(), DAY)).isTrue();
    assertThat(ledger.firstDelivery("slack", "Ev1", clock.instant(), DAY)).isFalse();
    assertThat(ledger.firstDelivery("slack", "Ev2", clock.instant(), DAY)).isFalse();
  }

  @Test
  void ofManyDeliveriesAtOnceExactlyOneIsFirst() throws Exception {
    DeliveryLedger ledger = store.deliveries();
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Boolean>> calls = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        calls.add(() -> ledger.firstDelivery("slack", "Ev-race", clock.instant(), DAY));
      }
      int first = 0;
      for (Future<Boolean> f : threads.invokeAll(calls)) {
        first += f.get() ? 1 : 0;
      }
      assertThat(first).isEqualTo(1);
    } finally {
      threads.shutdownNow();
    }
  }
}
