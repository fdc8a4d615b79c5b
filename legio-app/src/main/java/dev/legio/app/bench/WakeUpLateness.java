package dev.legio.app.bench;

import java.util.OptionalDouble;
import java.util.concurrent.locks.LockSupport;

/**
 * How late a thread that does nothing wakes up while a benchmark measures ({@code
 * wake_up_lateness_p50_ms}, {@code wake_up_lateness_p99_ms}): the machine's own stalls (a core lent
 * to another machine, another process, the JIT or the garbage collector taking a core, a queue of
 * threads waiting for one), which every request's overhead meets too, whatever the server does. It
 * is the floor under {@code api_overhead_p99_ms}, measured in the same window (the method of
 * jHiccup).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>One platform thread at the API's priority (started from the benchmark's main thread, never
 *       from a lowered one) sleeps {@value #PERIOD_MICROS} µs, again and again; each wake-up's
 *       lateness is the time it took less the time asked for.
 *   <li>It sleeps and records in the same way from its start until it is closed, so that the window
 *       opening changes no code path (a branch first taken there would be recompiled inside the
 *       window); only the wake-ups that end between {@link #opened} and {@link #closed} count.
 *   <li>It runs only when asked for ({@code --wake-up-probe}): its thousand wake-ups a second take
 *       a little of the cores the server needs (the handler's overhead at p99 was 0.52 – 0.91 ms
 *       with it, 0.28 – 0.45 without, in five alternating rounds).
 *   <li>It keeps the last {@value #KEPT} wake-ups (a window of up to 17 minutes); a longer window
 *       counts its last {@value #KEPT}.
 * </ul>
 */
final class WakeUpLateness implements ClosedLoopLoad.Window, AutoCloseable {
  /** How long the thread asks to sleep, in microseconds. */
  static final long PERIOD_MICROS = 1_000;

  /** How many wake-ups are kept: a power of two. */
  static final int KEPT = 1 << 20;

  /** How the thread sleeps; a test's may stall. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(long nanos);
  }

  private final long[] lateness = new long[KEPT];
  private final Thread thread;
  private volatile int written;
  private volatile boolean stopped;
  private volatile int from = -1;
  private volatile int to = -1;

  private WakeUpLateness(Sleeper sleeper) {
    this.thread =
        Thread.ofPlatform()
            .daemon()
            .name("legio-bench-wake-up")
            .start(() -> sleepAndRecord(sleeper, PERIOD_MICROS * 1_000));
  }

  /**
   * Starts measuring (and warming up with the load): a thread that sleeps with {@code parkNanos}.
   */
  static WakeUpLateness start() {
    return new WakeUpLateness(LockSupport::parkNanos);
  }

  static WakeUpLateness start(Sleeper sleeper) {
    return new WakeUpLateness(sleeper);
  }

  private void sleepAndRecord(Sleeper sleeper, long period) {
    int next = 0;
    while (!stopped) {
      long before = System.nanoTime();
      sleeper.sleep(period);
      lateness[next & (KEPT - 1)] = Math.max(0, System.nanoTime() - before - period);
      written = ++next;
    }
  }

  @Override
  public void opened() {
    from = written;
  }

  @Override
  public void closed() {
    to = written;
  }

  /** Stops the thread. */
  @Override
  public void close() {
    stopped = true;
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Each wake-up's lateness in the window, in nanoseconds; empty before the window has closed. */
  long[] lateness() {
    int start = from;
    int end = to;
    if (start < 0 || end < start) {
      return new long[0];
    }
    int count = Math.min(end - start, KEPT);
    long[] window = new long[count];
    for (int i = 0; i < count; i++) {
      window[i] = lateness[(end - count + i) & (KEPT - 1)];
    }
    return window;
  }

  /** The {@code p}th percentile of {@link #lateness} in milliseconds, or empty without any. */
  OptionalDouble percentileMillis(int p) {
    long[] window = lateness();
    return window.length == 0
        ? OptionalDouble.empty()
        : OptionalDouble.of(BenchSupport.percentileMillis(window, p));
  }
}
