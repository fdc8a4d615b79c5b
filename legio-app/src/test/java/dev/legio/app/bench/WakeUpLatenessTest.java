package dev.legio.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class WakeUpLatenessTest {
  /** Sleeps as asked, or the extra nanoseconds a test sets, once. */
  static final class StallingSleeper implements WakeUpLateness.Sleeper {
    final AtomicLong extra = new AtomicLong();

    @Override
    public void sleep(long nanos) {
      LockSupport.parkNanos(nanos + extra.getAndSet(0));
    }

    void stallOnce(long millis) throws InterruptedException {
      extra.set(millis * 1_000_000);
      while (extra.get() != 0) {
        Thread.sleep(1);
      }
    }
  }

  @Test
  void aStallInsideTheWindowIsCountedAndOneBeforeItIsNot() throws Exception {
    StallingSleeper sleeper = new StallingSleeper();
    try (WakeUpLateness late = WakeUpLateness.start(sleeper)) {
      sleeper.stallOnce(80); // before the window: not counted
      Thread.sleep(300); // its wake-up, however late, comes before the window
      late.opened();
      Thread.sleep(30);
      sleeper.stallOnce(40);
      Thread.sleep(300); // the stalled sleep has ended, and others after it
      late.closed();

      long[] window = late.lateness();
      assertThat(window.length).isGreaterThan(5);
      long worst = Arrays.stream(window).max().orElseThrow();
      assertThat(worst).isBetween(39_000_000L, 79_000_000L);
      // The 80 ms stall before the window is not counted (a busy machine may add stalls of its
      // own inside it, shorter than that: they are real lateness, and counted).
      assertThat(Arrays.stream(window).filter(n -> n >= 79_000_000L)).isEmpty();
      // One wake-up in all those: the 99th percentile of the window is the stall only when fewer
      // than 100 were counted.
      assertThat(late.percentileMillis(100).orElseThrow()).isGreaterThan(39);
    }
  }

  @Test
  void beforeItsWindowHasClosedThereIsNoFigure() throws Exception {
    try (WakeUpLateness late = WakeUpLateness.start()) {
      assertThat(late.lateness()).isEmpty();
      late.opened();
      Thread.sleep(20);
      assertThat(late.percentileMillis(99)).isEmpty();
      late.closed();
      assertThat(late.lateness()).isNotEmpty();
      assertThat(Arrays.stream(late.lateness()).min().orElseThrow()).isNotNegative();
    }
  }
}
