package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HeldLeasesTest {
  private final Object store = new Object();

  /** A lease that counts its renewals and releases. */
  private static final class CountingLease implements HeldLeases.Lease {
    final AtomicInteger renewals = new AtomicInteger();
    final CountDownLatch renewed = new CountDownLatch(2);

    @Override
    public boolean renew() {
      renewals.incrementAndGet();
      renewed.countDown();
      return true;
    }

    @Override
    public void release() {}
  }

  @Test
  void aLeaseReleasedBeforeItsFirstBeatLeavesNothingInTheHeartbeatsQueue() {
    HeldLeases leases = new HeldLeases(false);
    CountingLease lease = new CountingLease();
    for (int turn = 0; turn < 10_000; turn++) {
      leases.taken(store, "vorenus", "node-a", Duration.ofSeconds(10), lease);
      assertThat(leases.pendingBeats()).isEqualTo(1);
      leases.released(store, "vorenus", "node-a");
    }
    assertThat(leases.pendingBeats())
        .as("a released lease's beat leaves the queue at once, not when its delay runs out")
        .isZero();
    assertThat(leases.size()).isZero();
    assertThat(lease.renewals).hasValue(0);
  }

  @Test
  void aLeaseHeldPastItsHeartbeatIsRenewedUntilReleased() throws Exception {
    HeldLeases leases = new HeldLeases(false);
    CountingLease held = new CountingLease();
    CountingLease gone = new CountingLease();
    leases.taken(store, "pullo", "node-a", Duration.ofMillis(100), held);
    leases.taken(store, "vorenus", "node-a", Duration.ofMillis(100), gone);
    leases.released(store, "vorenus", "node-a");

    assertThat(held.renewed.await(5, TimeUnit.SECONDS)).as("two beats of the held lease").isTrue();
    leases.released(store, "pullo", "node-a");
    int after = held.renewals.get();
    Thread.sleep(300);
    assertThat(held.renewals).as("no beat after the release").hasValue(after);
    assertThat(gone.renewals).hasValue(0);
    assertThat(leases.pendingBeats()).isZero();
  }
}
