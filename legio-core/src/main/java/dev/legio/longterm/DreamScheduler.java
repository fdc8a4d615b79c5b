package dev.legio.longterm;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Background consolidation for a long-running Legio ({@code legio serve}): every {@code interval}
 * it runs {@link ConsolidationRunner#run} (gates included, never forced) for each agent that is
 * idle at that moment, so memory is consolidated after an agent finishes its work, never during an
 * active conversation. An agent that is working is left for the next check. Failures are logged and
 * the schedule goes on. With several nodes on one store, {@link #runThrough} makes each scheduled
 * check run only where a gate says (the node holding the consolidation job's lease).
 */
public final class DreamScheduler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DreamScheduler.class);

  /** How often {@code legio serve} checks the gates. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofHours(1);

  private final ConsolidationRunner runner;
  private final Supplier<? extends Collection<String>> agents;
  private final Predicate<String> idle;
  private final Duration interval;
  private volatile java.util.function.Consumer<Runnable> gate = Runnable::run;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("legio-dream").daemon().factory());

  /**
   * @param agents the agents whose memory may be consolidated (asked at each check)
   * @param idle true for an agent not working right now
   */
  public DreamScheduler(
      ConsolidationRunner runner,
      Supplier<? extends Collection<String>> agents,
      Predicate<String> idle,
      Duration interval) {
    if (interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("the consolidation check interval must be positive");
    }
    this.runner = runner;
    this.agents = agents;
    this.idle = idle;
    this.interval = interval;
  }

  /**
   * Runs each scheduled check through {@code gate} (which runs it, or skips it on a node that does
   * not hold the job: {@code task -> jobs.runIfHolder("memory-consolidation", task)}).
   */
  public DreamScheduler runThrough(java.util.function.Consumer<Runnable> gate) {
    this.gate = java.util.Objects.requireNonNull(gate, "gate");
    return this;
  }

  /** Starts the checks: the first after one interval. */
  public void start() {
    long every = interval.toMillis();
    scheduler.scheduleWithFixedDelay(
        () -> {
          try {
            gate.accept(this::checkSafely);
          } catch (RuntimeException e) {
            log.error("memory consolidation check failed; it runs again at its next time", e);
          }
        },
        every,
        every,
        TimeUnit.MILLISECONDS);
  }

  private void checkSafely() {
    try {
      checkNow();
    } catch (RuntimeException e) {
      log.error("memory consolidation check failed; it runs again at its next time", e);
    }
  }

  /** One check, now, on the calling thread: consolidates the idle agents whose gates pass. */
  public int checkNow() {
    int ran = 0;
    for (String agent : agents.get()) {
      if (Thread.currentThread().isInterrupted()) {
        break;
      }
      if (!idle.test(agent)) {
        log.debug("consolidation of {} waits: the agent is working", agent);
        continue;
      }
      ConsolidationResult result = runner.run(agent, false, ConsolidationListener.NONE);
      switch (result) {
        case ConsolidationResult.Completed c -> {
          ran++;
          log.info(
              "memory of {} consolidated: {} facts, files written {}, MEMORY.md {} lines",
              agent,
              c.factsConsolidated(),
              c.filesWritten(),
              c.indexLines());
        }
        case ConsolidationResult.Skipped s ->
            log.debug("consolidation of {} skipped: {}", agent, s.reason());
        case ConsolidationResult.Refused r ->
            log.warn("memory of {} not consolidated: {}", agent, r.reason());
        case ConsolidationResult.Failed f -> log.error("{}", f.message());
      }
      result.warnings().forEach(w -> log.warn("consolidation of {}: {}", agent, w));
    }
    return ran;
  }

  /** Stops the checks, waiting for a run in progress (it releases its lock). */
  @Override
  public void close() {
    scheduler.shutdownNow();
    try {
      scheduler.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
