package dev.legio.app.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import java.util.function.ToLongBiFunction;
import org.junit.jupiter.api.Test;

class OtherProcessesCpuTest {
  /** A /proc/PID/stat line: utime, stime and the start time filled in. */
  private static final String STAT =
      "4242 (java (legio) x) S 1 4242 4242 0 -1 4194560 5 0 0 0 %d %d 0 0 20 0 40 0 %d 0 0";

  /**
   * Percentage points a figure may stray out of what the test's readings allow. The kernel keeps a
   * process's time ({@code /proc/PID/stat}, scaled from its run time) apart from the machine's
   * ({@code /proc/stat}, counted by ticks), so over a one-second window the two disagree by a few
   * points when the machine is nearly full: CI saw a figure of 98.1 against a bound of 95.6 with
   * two {@code yes} on two cores. Five points still tell a counter that counted this process's
   * spin, or missed the {@code yes} beside it: both loads are over 50 points.
   */
  private static final double SLACK = 5.0;

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

  /**
   * Against the real {@code /proc}, whatever else the machine runs: the counter's figure for a
   * window lies within what the test's own readings of {@code /proc}, taken just before and just
   * after each end of the window, allow, and the loads the test makes itself are larger than that
   * margin. So a counter that counted this process's work (a spin of its own) would come out above
   * the margin, and one that missed another process's (a {@code yes} beside it) below it, however
   * busy the machine is.
   */
  @Test
  void aProcessBusyBesideTheWindowCountsAndThisProcesssOwnWorkDoesNot() throws Exception {
    assumeThat(OtherProcessesCpu.read()).as("Linux's /proc").isNotNull();
    long self = ProcessHandle.current().pid();
    assertThat(OtherProcessesCpu.read().processes().keySet())
        .noneMatch(k -> k.startsWith(self + "@"));

    int cores = Runtime.getRuntime().availableProcessors();
    measure(
        "this process's own work in the window",
        OtherProcessesCpu::new,
        window -> spinOnEveryCore(cores, window),
        (before, after) -> after.selfTicks() - before.selfTicks());

    // `yes`, four a core, each in a session of its own: with the machine's other work, the load has
    // a share worth counting. The kernel shares the cores between sessions first (autogroups), so
    // any number of `yes` in this process's session had its share at most, 15 points at a load of
    // 15 on two cores.
    List<Process> yes = new ArrayList<>();
    try {
      for (int i = 0; i < 4 * cores; i++) {
        yes.add(
            new ProcessBuilder(yesInASessionOfItsOwn()).redirectOutput(Redirect.DISCARD).start());
      }
      assertThat(OtherProcessesCpu.read().processes().keySet())
          .anyMatch(k -> k.startsWith(yes.get(0).pid() + "@"));
      // As bench api makes its counter: reading through the warm-up, then at the window's ends.
      measure(
          "`yes` beside the window",
          () -> OtherProcessesCpu.readingThroughWarmUp(Duration.ofMillis(20)),
          OtherProcessesCpuTest::sleep,
          (before, after) ->
              yes.stream().mapToLong(p -> after.ticksOf(p.pid()) - before.ticksOf(p.pid())).sum());
    } finally {
      for (Process p : yes) {
        p.destroy();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * One window measured by a counter and, beside it, by the test's readings of {@code /proc}.
   *
   * @param figure the counter's share
   * @param low the least other processes can have used: their time between the inner readings
   *     (after the window opened, before it closed) over the machine's between the outer ones
   * @param high the most: their time between the outer readings over the machine's between the
   *     inner ones
   * @param load the share of the load the test made, between the inner readings over the outer
   */
  private record Measured(double figure, double low, double high, double load) {}

  /**
   * Measures {@code work} with a counter, up to three times, until the load the test made is larger
   * than the readings' margin (a busy machine can leave it little time); each measurement must be
   * within its margin. The window is 1 s, then 2 s, then 4 s: the margin is the time the test's
   * readings of {@code /proc} take against the window's, and a busy machine makes them slow.
   *
   * @param work the work in a window of the milliseconds it is given
   * @param load the load's ticks between two of the test's readings
   */
  private static void measure(
      String what,
      Supplier<OtherProcessesCpu> counters,
      LongConsumer work,
      ToLongBiFunction<ProcReading, ProcReading> load)
      throws IOException {
    Measured measured = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      long window = 1_000L << attempt;
      try (OtherProcessesCpu counter = counters.get()) {
        sleep(300);
        ProcReading outerOpen = ProcReading.now();
        counter.opened();
        ProcReading innerOpen = ProcReading.now();
        work.accept(window);
        ProcReading innerClose = ProcReading.now();
        counter.closed();
        ProcReading outerClose = ProcReading.now();
        long outerTotal = outerClose.machineTicks() - outerOpen.machineTicks();
        long innerTotal = innerClose.machineTicks() - innerOpen.machineTicks();
        measured =
            new Measured(
                counter.percent().getAsDouble(),
                100.0 * ProcReading.others(innerOpen, innerClose) / outerTotal,
                100.0 * ProcReading.others(outerOpen, outerClose) / innerTotal,
                100.0 * load.applyAsLong(innerOpen, innerClose) / outerTotal);
      }
      assertThat(measured.figure())
          .as("%s: %s", what, measured)
          .isBetween(measured.low() - SLACK, measured.high() + SLACK);
      if (measured.load() > measured.high() - measured.low() + 2 * SLACK) {
        return;
      }
    }
    throw new AssertionError(
        what + ": the load the test made was within the readings' margin three times: " + measured);
  }

  /**
   * The test's own reading of {@code /proc}, apart from the counter's code: the machine's clock
   * ticks (every core's time), the cores' stolen time, this process's time, and each other
   * process's time by id and start time.
   */
  private record ProcReading(
      long machineTicks, long steal, long selfTicks, Map<String, Long> others) {
    static ProcReading now() throws IOException {
      String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long machine = 0;
      for (int i = 1; i <= 8; i++) { // user nice system idle iowait irq softirq steal
        machine += Long.parseLong(cpu[i]);
      }
      long self = ProcessHandle.current().pid();
      long selfTicks = 0;
      Map<String, Long> others = new HashMap<>();
      try (var dirs = Files.list(Path.of("/proc"))) {
        for (Path dir : dirs.toList()) {
          String pid = dir.getFileName().toString();
          if (!pid.chars().allMatch(Character::isDigit)) {
            continue;
          }
          String[] f;
          try {
            String stat = Files.readString(dir.resolve("stat"));
            f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          } catch (IOException ended) {
            continue;
          }
          // Fields from the state on (field 3): utime is 14, stime 15, the start time 22.
          long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
          if (Long.parseLong(pid) == self) {
            selfTicks = ticks;
          } else {
            others.put(pid + "@" + f[19], ticks);
          }
        }
      }
      return new ProcReading(machine, Long.parseLong(cpu[8]), selfTicks, others);
    }

    /** The time of the process {@code pid}, 0 when it is not there. */
    long ticksOf(long pid) {
      return others.entrySet().stream()
          .filter(e -> e.getKey().startsWith(pid + "@"))
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    /** Other processes' time and stolen time from {@code from} to {@code to}. */
    static long others(ProcReading from, ProcReading to) {
      long sum = to.steal() - from.steal();
      for (Map.Entry<String, Long> p : to.others().entrySet()) {
        sum += p.getValue() - from.others().getOrDefault(p.getKey(), 0L);
      }
      return sum;
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  @Test
  void aCounterReadsThroughTheWarmUpAndStopsAsItsWindowOpens() throws Exception {
    assumeThat(OtherProcessesCpu.read()).as("Linux's /proc").isNotNull();
    try (OtherProcessesCpu counter =
        OtherProcessesCpu.readingThroughWarmUp(Duration.ofMillis(10))) {
      // Five readings, however long a busy machine makes them take (three in 500 ms at a load of
      // 15 on 2 cores): what matters is that they go on, then stop.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (counter.warmUpReadings() < 5 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
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

  /**
   * {@code yes} in a new session ({@code setsid}, which runs it in its own process since a child of
   * the JVM leads no process group), or plain {@code yes} where there is no {@code setsid}.
   */
  private static List<String> yesInASessionOfItsOwn() {
    return Files.isExecutable(Path.of("/usr/bin/setsid"))
        ? List.of("/usr/bin/setsid", "yes")
        : List.of("yes");
  }

  /** Keeps {@code threads} threads of this process busy for {@code millis}. */
  private static void spinOnEveryCore(int threads, long millis) {
    List<Thread> spinning = new ArrayList<>();
    for (int i = 1; i < threads; i++) {
      spinning.add(Thread.ofPlatform().start(() -> spin(millis)));
    }
    spin(millis);
    spinning.forEach(
        t -> {
          try {
            t.join();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
          }
        });
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
