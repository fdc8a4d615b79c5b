package dev.legio.app.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OtherProcessesCpuTest {
  /** A /proc/PID/stat line: utime, stime and the start time filled in. */
  private static final String STAT =
      "4242 (java (legio) x) S 1 4242 4242 0 -1 4194560 5 0 0 0 %d %d 0 0 20 0 40 0 %d 0 0";

  @Test
  void othersAreEachOtherProcesssTimePlusStealAsAShareOfEveryCore() {
    // user nice system idle iowait irq softirq steal guest guest_nice
    OtherProcessesCpu.Reading from =
        OtherProcessesCpu.parse(
            "cpu  1000 500 300 8000 10 5 50 0 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n",
            Map.of(
                "10", STAT.formatted(600, 100, 77),
                "11", STAT.formatted(40, 2, 78),
                "12", STAT.formatted(5, 5, 79)));
    // 400 ticks pass on two cores (800 in all). Process 10 spends 60 more, 11 ends, 12's id is
    // reused by a new process (30 from zero), 13 starts (10), and 20 ticks are stolen: 120.
    OtherProcessesCpu.Reading to =
        OtherProcessesCpu.parse(
            "cpu  1200 550 330 8465 10 10 80 20 0 0\n",
            Map.of(
                "10", STAT.formatted(650, 110, 77),
                "12", STAT.formatted(20, 10, 900),
                "13", STAT.formatted(10, 0, 901)));

    assertThat(from.machineTotal()).isEqualTo(9865);
    assertThat(from.processes()).containsEntry("10@77", 700L).containsEntry("12@79", 10L);
    assertThat(OtherProcessesCpu.percent(from, to).getAsDouble()).isEqualTo(15.0);
  }

  @Test
  void noFigureRatherThanAWrongOne() {
    OtherProcessesCpu.Reading r = new OtherProcessesCpu.Reading(Map.of(), 0, 100);
    assertThat(OtherProcessesCpu.percent(r, r)).isEqualTo(OptionalDouble.empty());
    assertThat(new OtherProcessesCpu().percent()).isEmpty();
    assertThatThrownBy(() -> OtherProcessesCpu.parse("intr 1 2 3\n", Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aProcessBusyBesideTheWindowCountsAndThisProcesssOwnWorkDoesNot() throws Exception {
    assumeThat(OtherProcessesCpu.read()).as("Linux's /proc").isNotNull();
    OtherProcessesCpu ownWork = new OtherProcessesCpu();
    ownWork.opened();
    spin(1_000);
    ownWork.closed();

    Process yes = new ProcessBuilder("yes").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    // As bench api makes its counter: reading through the warm-up, then at the window's ends.
    OtherProcessesCpu othersWork = OtherProcessesCpu.readingThroughWarmUp(Duration.ofMillis(20));
    try (othersWork) {
      Thread.sleep(300);
      othersWork.opened();
      Thread.sleep(1_000);
      othersWork.closed();
    } finally {
      yes.destroy();
      yes.waitFor(10, TimeUnit.SECONDS);
    }

    int cores = Runtime.getRuntime().availableProcessors();
    // `yes` keeps one core busy: 100 / cores percent of the machine, less what it waits.
    assertThat(othersWork.percent().getAsDouble()).isGreaterThan(50.0 / cores);
    assertThat(ownWork.percent().getAsDouble())
        .isLessThan(othersWork.percent().getAsDouble() - 25.0 / cores);
  }

  @Test
  void aCounterReadsThroughTheWarmUpAndStopsAsItsWindowOpens() throws Exception {
    assumeThat(OtherProcessesCpu.read()).as("Linux's /proc").isNotNull();
    try (OtherProcessesCpu counter =
        OtherProcessesCpu.readingThroughWarmUp(Duration.ofMillis(10))) {
      Thread.sleep(500);
      assertThat(counter.warmUpReadings()).isGreaterThanOrEqualTo(5);
      counter.opened();
      int before = counter.warmUpReadings();
      Thread.sleep(200);
      assertThat(counter.warmUpReadings()).isEqualTo(before);
      assertThat(Thread.getAllStackTraces().keySet())
          .noneMatch(t -> t.getName().equals("legio-bench-others-cpu"));
    }
    // Closed without a window (a load that failed): the readings stop too.
    OtherProcessesCpu unopened = OtherProcessesCpu.readingThroughWarmUp(Duration.ofMillis(10));
    Thread.sleep(100);
    unopened.close();
    int after = unopened.warmUpReadings();
    Thread.sleep(100);
    assertThat(unopened.warmUpReadings()).isEqualTo(after);
  }

  private static void spin(long millis) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    long x = 0;
    while (System.nanoTime() < end) {
      x += System.nanoTime() % 7;
    }
    assertThat(x).isNotNegative();
  }
}
