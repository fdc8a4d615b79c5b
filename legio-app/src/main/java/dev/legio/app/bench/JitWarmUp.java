package dev.legio.app.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * When a load's warm-up is over: once the JIT has settled, so that a benchmark measures the steady
 * state rather than the compiler (which takes a core of its own while it works, and on 2 cores is
 * still busy for tens of seconds after a server starts).
 *
 * <p>Rule: the warm-up lasts at least {@code minimum}; after that it ends at the first whole second
 * in which the JIT compiled for at most {@link #SETTLED_MS_PER_SECOND} ms, two seconds in a row, or
 * at {@code maximum} whatever the JIT does. Where the JVM gives no compilation time, the minimum
 * alone.
 *
 * <p>The JIT's counter is looked up once, when the warm-up is made, and read through that reference
 * ({@link #compiledMillis}), so that reading it at a window's ends runs no lookup ({@link
 * ClosedLoopLoad}'s rules say why).
 */
final class JitWarmUp {
  /** Compilation time per second of run at or below which the JIT counts as settled (1%). */
  static final long SETTLED_MS_PER_SECOND = 10;

  private final Duration minimum;
  private final Duration maximum;

  /** Milliseconds the JIT has compiled for since the JVM started; null where not measured. */
  private final LongSupplier compiled;

  JitWarmUp(Duration minimum, Duration maximum) {
    this(minimum, maximum, platformCounter());
  }

  /** A warm-up that reads the JIT's time from {@code compiled} (null: the minimum alone). */
  JitWarmUp(Duration minimum, Duration maximum, LongSupplier compiled) {
    if (maximum.compareTo(minimum) < 0) {
      throw new IllegalArgumentException("the warm-up's maximum is below its minimum");
    }
    this.minimum = minimum;
    this.maximum = maximum;
    this.compiled = compiled;
  }

  private static LongSupplier platformCounter() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit::getTotalCompilationTime
        : null;
  }

  /** How a warm-up went: its length and whether the JIT had settled at its end. */
  record Result(Duration took, boolean settled) {}

  /**
   * Waits while the load runs until the warm-up is over; {@code failing} cuts it short (the load
   * cannot be measured anyway).
   */
  Result await(BooleanSupplier failing) throws InterruptedException {
    boolean timed = compiled != null;
    long start = System.nanoTime();
    long min = minimum.toNanos();
    long max = maximum.toNanos();
    int quietSeconds = 0;
    long before = compiledMillis();
    while (!failing.getAsBoolean()) {
      long elapsed = System.nanoTime() - start;
      if (elapsed >= max) {
        return new Result(Duration.ofNanos(elapsed), !timed && elapsed >= min);
      }
      if (elapsed >= min && (!timed || quietSeconds >= 2)) {
        return new Result(Duration.ofNanos(elapsed), true);
      }
      Thread.sleep(Math.min(1_000, Math.max(1, (max - elapsed) / 1_000_000)));
      if (timed) {
        long now = compiledMillis();
        quietSeconds = now - before <= SETTLED_MS_PER_SECOND ? quietSeconds + 1 : 0;
        before = now;
      }
    }
    return new Result(Duration.ofNanos(System.nanoTime() - start), false);
  }

  /**
   * Milliseconds the JIT has compiled for since the JVM started (0 where not measured), through the
   * counter looked up when this warm-up was made: no lookup at the window's ends.
   */
  long compiledMillis() {
    return compiled == null ? 0 : compiled.getAsLong();
  }
}
