package dev.legio.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.testing.InMemorySessionStore;
import dev.legio.testing.MutableClock;
import dev.legio.testing.RecordingSleeper;
import java.time.Duration;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link LeaseGate}: the bounded wait for a lease another process holds, really waited on a fake
 * clock (each sleep moves the clock by what it was asked to sleep).
 */
class LeaseGateTest {
  private static final Duration LEASE = Duration.ofMinutes(15);

  private final MutableClock clock = MutableClock.at("2026-11-21T09:00:00Z");
  private final InMemorySessionStore store = new InMemorySessionStore();
  private final RecordingSleeper sleeps = new RecordingSleeper();

  private LeaseGate gate() {
    return new LeaseGate(
        store,
        "me",
        LEASE,
        clock,
        clock,
        duration -> {
          sleeps.sleep(duration);
          clock.advance(duration);
        });
  }

  @ParameterizedTest(name = "held by {0} for {1} ms, wait {2} ms: {3} after {4} sleeps")
  @CsvSource({
    // holder, its lease ms, wait ms, taken, sleeps
    "nobody,  0,      1000, true,  0",
    "me,      900000, 1000, true,  0",
    "other,   900000, 0,    false, 0",
    "other,   900000, -5,   false, 0",
    "other,   900000, 1000, false, 20",
    "other,   900000, 1020, false, 21",
    "other,   0,      1000, true,  1",
    "other,   120,    1000, true,  3",
    "other,   1000,   1000, false, 20",
    "other,   950,    1000, true,  20",
  })
  void aTurnWaitsAtMostItsBoundForALeaseHeldElsewhere(
      String holder, long leaseMillis, long waitMillis, boolean taken, int sleepCount) {
    if (!holder.equals("nobody")) {
      assertThat(store.tryLease("vorenus", holder, clock.instant(), Duration.ofMillis(leaseMillis)))
          .isTrue();
    }
    var start = clock.instant();

    assertThat(gate().acquire("vorenus", Duration.ofMillis(waitMillis))).isEqualTo(taken);

    assertThat(sleeps.waits).isEqualTo(Collections.nCopies(sleepCount, LeaseGate.POLL));
    assertThat(Duration.between(start, clock.instant()))
        .isEqualTo(LeaseGate.POLL.multipliedBy(sleepCount));
    assertThat(store.holderOf("vorenus")).contains(taken ? "me" : holder);
    if (taken) {
      assertThat(store.leasedOwners(clock.instant().plus(LEASE))).containsExactly("vorenus");
      assertThat(store.leasedOwners(clock.instant().plus(LEASE).plusNanos(1))).isEmpty();
    }
  }

  @Test
  void anInterruptEndsTheWaitWithoutTheLeaseAndKeepsTheFlag() {
    store.tryLease("vorenus", "other", clock.instant(), LEASE);
    LeaseGate gate =
        new LeaseGate(
            store,
            "me",
            LEASE,
            clock,
            clock,
            duration -> {
              throw new InterruptedException();
            });
    try {
      assertThat(gate.acquire("vorenus", Duration.ofSeconds(30))).isFalse();
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(store.holderOf("vorenus")).contains("other");
  }

  @Test
  void releaseGivesUpOnlyThisProcesssLease() {
    LeaseGate gate = gate();
    store.tryLease("pullo", "other", clock.instant(), LEASE);
    assertThat(gate.acquire("vorenus", Duration.ZERO)).isTrue();
    assertThat(gate.leasedOwners()).containsExactly("pullo", "vorenus");

    gate.release("vorenus");
    gate.release("pullo");

    assertThat(gate.leasedOwners()).containsExactly("pullo");
    assertThat(store.holderOf("pullo")).contains("other");
  }
}
