package dev.legio.app.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How much of the machine other processes used while a benchmark measured ({@code
 * others_cpu_percent}), so that a run on a busy machine says so beside its figures.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The share is of every core's time in the window: 50 on two cores means one core's worth.
 *   <li>Others' time is what each other process and kernel thread spent ({@code utime} and {@code
 *       stime} of {@code /proc/PID/stat}), plus the time the machine's cores were lent to another
 *       machine ({@code steal} in {@code /proc/stat}). It is counted per process, not as the
 *       machine's busy time less this process's: depending on how the kernel accounts interrupt
 *       time, this process's loopback traffic is charged to its own threads, to the interrupt lines
 *       of {@code /proc/stat}, or to both, and a difference came out at zero.
 *   <li>A process is known by its id and start time (an id can be reused); one that started in the
 *       window counts from zero; one that ended in it is missed, so the figure may be low, never
 *       high.
 *   <li>Linux only, and only when {@code /proc} reads and parses; otherwise there is no figure
 *       rather than a wrong one. The files count in clock ticks (a hundredth of a second), so a
 *       window under a second gives a coarse figure.
 *   <li>Its own reading should not disturb the window it measures: it runs in the benchmark's JVM,
 *       beside the server. So a counter {@linkplain #readingThroughWarmUp reads} {@code /proc}
 *       every {@value #WARM_UP_EVERY_MS} ms from before the load starts until its window opens, and
 *       the JIT compiles that code during the load's warm-up, with the load's own profile (the
 *       directory listing and file reading it shares with the server), and settles on it before
 *       measuring begins. Read cold at the window's opening, its loop over every process ran
 *       interpreted there; read 100 times before the load only, it still set off compilations of 25
 *       – 105 ms inside the window in the runs that missed the target (docs/BENCHMARKS.md, sessions
 *       15 and 16).
 * </ul>
 */
final class OtherProcessesCpu implements ClosedLoopLoad.Window, AutoCloseable {
  /**
   * Clock ticks: each other process's time (by id and start time), the cores' stolen time and every
   * core's time in all.
   */
  record Reading(Map<String, Long> processes, long steal, long machineTotal) {}

  private static final Path PROC = Path.of("/proc");

  /** How often {@link #readingThroughWarmUp} reads before the window opens, in milliseconds. */
  static final long WARM_UP_EVERY_MS = 100;

  private volatile Reading opened;
  private volatile Reading closed;
  private final Thread warmUp;
  private final AtomicInteger warmUpReadings = new AtomicInteger();

  /** A counter that reads only when told (at the window's ends). */
  OtherProcessesCpu() {
    this.warmUp = null;
  }

  private OtherProcessesCpu(Duration every) {
    this.warmUp =
        Thread.ofPlatform()
            .daemon()
            .name("legio-bench-others-cpu")
            .start(
                () -> {
                  try {
                    while (!Thread.currentThread().isInterrupted()) {
                      if (read() != null) {
                        warmUpReadings.incrementAndGet();
                      }
                      Thread.sleep(every);
                    }
                  } catch (InterruptedException e) {
                    // the window opens, or the load ended without one
                  }
                });
  }

  /**
   * A counter that reads {@code /proc} every {@value #WARM_UP_EVERY_MS} ms until its window opens
   * (or it is closed), so that its code is compiled along with the load's.
   */
  static OtherProcessesCpu readingThroughWarmUp() {
    return readingThroughWarmUp(Duration.ofMillis(WARM_UP_EVERY_MS));
  }

  static OtherProcessesCpu readingThroughWarmUp(Duration every) {
    return new OtherProcessesCpu(every);
  }

  /** How many readings were taken before the window opened. */
  int warmUpReadings() {
    return warmUpReadings.get();
  }

  @Override
  public void opened() {
    stopWarmUp();
    opened = read();
  }

  @Override
  public void closed() {
    closed = read();
  }

  /** Stops the readings before the window, if they still run. */
  @Override
  public void close() {
    stopWarmUp();
  }

  private void stopWarmUp() {
    if (warmUp == null) {
      return;
    }
    warmUp.interrupt();
    try {
      warmUp.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The share of the window, or empty when either end could not be read. */
  OptionalDouble percent() {
    Reading from = opened;
    Reading to = closed;
    return from == null || to == null ? OptionalDouble.empty() : percent(from, to);
  }

  static OptionalDouble percent(Reading from, Reading to) {
    long total = to.machineTotal() - from.machineTotal();
    if (total <= 0) {
      return OptionalDouble.empty();
    }
    long others = Math.max(0, to.steal() - from.steal());
    for (Map.Entry<String, Long> p : to.processes().entrySet()) {
      others += Math.max(0, p.getValue() - from.processes().getOrDefault(p.getKey(), 0L));
    }
    return OptionalDouble.of(Math.min(100.0, 100.0 * others / total));
  }

  /** Now, or null where {@code /proc} is missing or not as Linux writes it. */
  static Reading read() {
    try {
      long self = ProcessHandle.current().pid();
      Map<String, String> stats = new HashMap<>();
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, "[0-9]*")) {
        for (Path dir : dirs) {
          if (Long.parseLong(dir.getFileName().toString()) == self) {
            continue;
          }
          try {
            stats.put(dir.getFileName().toString(), Files.readString(dir.resolve("stat")));
          } catch (IOException ended) {
            // The process ended between the listing and the read: it is missed, as the rules say.
          }
        }
      }
      return parse(Files.readString(PROC.resolve("stat")), stats);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * {@code /proc/stat} (its first line: {@code cpu user nice system idle iowait irq softirq steal
   * ...}) and each other process's {@code /proc/PID/stat}, whose name field may hold spaces and
   * parentheses: its fields are counted from the last {@code ')'}.
   */
  static Reading parse(String machine, Map<String, String> processStats) {
    String cpu = machine.lines().findFirst().orElseThrow().strip();
    String[] f = cpu.split("\\s+");
    if (!f[0].equals("cpu") || f.length < 9) {
      throw new IllegalArgumentException("not /proc/stat's cpu line: " + cpu);
    }
    long total = 0;
    for (int i = 1; i <= 8; i++) {
      total += Long.parseLong(f[i]);
    }
    Map<String, Long> processes = new HashMap<>();
    processStats.forEach(
        (pid, stat) -> {
          // After the name: state is field 3, utime 14, stime 15 and the start time 22.
          String[] p = stat.substring(stat.lastIndexOf(')') + 1).strip().split("\\s+");
          processes.put(pid + "@" + p[19], Long.parseLong(p[11]) + Long.parseLong(p[12]));
        });
    return new Reading(processes, Long.parseLong(f[8]), total);
  }
}
