package dev.legio.app.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A closed-loop load: N clients, each on a platform thread of its own, each sending its next
 * request as soon as its last one is answered, with no pause between phases.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The same client threads warm up, are measured, then cool down: no thread starts, and no
 *       client waits for the others, when measuring begins (32 clients released at once would
 *       measure their own stampede).
 *   <li>Warm-up lasts as long as the {@link JitWarmUp} says.
 *   <li>Exactly {@code measured} requests are measured: those that claim a place while measuring;
 *       the clients go on sending (unmeasured) until the last measured request is answered, so that
 *       the last ones see the same load as the first.
 *   <li>A request that throws counts as failed; the load goes on.
 *   <li>A {@link Window}, when given, is told as measuring begins and as its last request is
 *       answered, so that other figures (the machine's, say) cover the same window.
 *   <li>The window's ends run no code that the server might share and has not seen: the JIT's
 *       counter is read through a reference looked up before the load ({@link
 *       JitWarmUp#compiledMillis}), and the thread that runs the load waits for the last answer
 *       with {@link LockSupport#park} rather than a latch. Both first appeared there as calls into
 *       JDK code that the server had compiled for its own use (streams; the queued synchronizer of
 *       its locks), and deoptimised it as measuring began (docs/BENCHMARKS.md, session 18).
 * </ul>
 */
final class ClosedLoopLoad {
  /** One request of client {@code client}; its figures, in nanoseconds. */
  @FunctionalInterface
  interface Call {
    Sample send(int client) throws Exception;
  }

  /**
   * What one request took: end to end at the client, and the engine's and the handler's time as the
   * server reported them; {@code ok} false when the answer was not the one expected.
   */
  record Sample(long turnNanos, long engineNanos, long handlerNanos, boolean ok) {
    static final Sample FAILED = new Sample(0, 0, 0, false);
  }

  /**
   * Told, on the thread that runs the load, when measuring begins and when its last request has
   * been answered.
   */
  interface Window {
    Window NONE = new Window() {};

    /** Tells each of {@code windows}, in order. */
    static Window all(Window... windows) {
      Window[] each = windows.clone();
      return new Window() {
        @Override
        public void opened() {
          for (Window w : each) {
            w.opened();
          }
        }

        @Override
        public void closed() {
          for (Window w : each) {
            w.closed();
          }
        }
      };
    }

    default void opened() {}

    default void closed() {}
  }

  /**
   * The measured requests' samples, the measurement's length and when it began (the wall clock, to
   * match with a profiler's events), how the warm-up went, and how long the JIT compiled meanwhile.
   */
  record Result(
      List<Sample> samples,
      Duration measured,
      Instant began,
      JitWarmUp.Result warmUp,
      long jitMillisMeasuring) {
    long failed() {
      return samples.stream().filter(s -> !s.ok()).count();
    }
  }

  private enum Phase {
    WARM_UP,
    MEASURE,
    STOP
  }

  private final int clients;
  private final Call call;
  private volatile Phase phase = Phase.WARM_UP;
  private final AtomicInteger warmUpFailures = new AtomicInteger();

  ClosedLoopLoad(int clients, Call call) {
    this.clients = clients;
    this.call = call;
  }

  Result run(JitWarmUp warmUp, int measured) throws InterruptedException {
    return run(warmUp, measured, Window.NONE);
  }

  Result run(JitWarmUp warmUp, int measured, Window window) throws InterruptedException {
    Sample[] samples = new Sample[measured];
    AtomicInteger places = new AtomicInteger();
    AtomicInteger unanswered = new AtomicInteger(measured);
    Thread waiting = Thread.currentThread();
    List<Thread> threads = new ArrayList<>(clients);
    for (int c = 0; c < clients; c++) {
      int client = c;
      threads.add(
          Thread.ofPlatform()
              .name("legio-bench-client-" + c)
              .start(() -> loop(client, samples, places, unanswered, waiting)));
    }
    try {
      // A load whose every warm-up request fails cannot be measured: stop waiting for the JIT.
      JitWarmUp.Result warm = warmUp.await(() -> warmUpFailures.get() >= 100 * clients);
      long jitBefore = warmUp.compiledMillis();
      // A plain long here, the Instant made after the window: a trial that printed Instant.now()
      // at this point set off deoptimisations at the window's opening.
      long began = System.currentTimeMillis();
      window.opened();
      long start = System.nanoTime();
      phase = Phase.MEASURE;
      while (unanswered.get() > 0) {
        LockSupport.park(this);
        if (Thread.interrupted()) {
          throw new InterruptedException("the load was interrupted while it was measured");
        }
      }
      long took = System.nanoTime() - start;
      long jit = warmUp.compiledMillis() - jitBefore; // not what the closing reading compiles
      window.closed();
      return new Result(
          List.of(samples), Duration.ofNanos(took), Instant.ofEpochMilli(began), warm, jit);
    } finally {
      phase = Phase.STOP;
      for (Thread t : threads) {
        t.join();
      }
    }
  }

  private void loop(
      int client,
      Sample[] samples,
      AtomicInteger places,
      AtomicInteger unanswered,
      Thread waiting) {
    while (true) {
      Phase now = phase;
      if (now == Phase.STOP) {
        return;
      }
      int place = now == Phase.MEASURE ? places.getAndIncrement() : -1;
      Sample sample;
      try {
        sample = call.send(client);
      } catch (Exception | AssertionError e) {
        sample = Sample.FAILED;
      }
      if (place >= 0 && place < samples.length) {
        samples[place] = sample;
        if (unanswered.decrementAndGet() == 0) {
          LockSupport.unpark(waiting);
        }
      } else if (now == Phase.WARM_UP && !sample.ok()) {
        warmUpFailures.incrementAndGet();
      }
    }
  }
}
