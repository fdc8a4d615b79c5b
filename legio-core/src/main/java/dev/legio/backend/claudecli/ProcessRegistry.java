package dev.legio.backend.claudecli;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CLI processes a back-end has running. When the back-end closes, or the JVM exits without
 * closing it (a shutdown hook), every one of them is killed with its descendants: no stale {@code
 * claude} process outlives Legio. Each is also written down in a {@link CliProcessLedger} while it
 * runs, so that the next Legio stops the ones a killed Legio (no shutdown hook) left.
 *
 * <p>A process that drains at exit ({@code legio serve}) says so with {@link #killAtExitAfter}: the
 * shutdown hook, which the JVM starts beside the drain's own, then waits for the drain (at most the
 * time given) before it kills anything, so that the turns in flight can finish within the grace;
 * the drain closes the back-end, and with it the processes, itself.
 */
final class ProcessRegistry implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ProcessRegistry.class);

  private final Set<Process> running = ConcurrentHashMap.newKeySet();
  private static volatile java.util.concurrent.CountDownLatch drained;
  private static volatile java.time.Duration drainWait = java.time.Duration.ZERO;

  private final Thread hook = new Thread(this::killAllAtExit, "legio-claude-cli-reaper");
  private final CliProcessLedger ledger;
  private volatile boolean hooked;

  ProcessRegistry(CliProcessLedger ledger) {
    this.ledger = ledger;
    try {
      Runtime.getRuntime().addShutdownHook(hook);
      hooked = true;
    } catch (IllegalStateException e) {
      // the JVM is already shutting down
      hooked = false;
    }
  }

  void add(Process process) {
    running.add(process);
    ProcessHandle handle = process.toHandle();
    ledger.started(handle);
    process.onExit().thenRun(() -> ledger.ended(handle));
  }

  void remove(Process process) {
    running.remove(process);
  }

  /** How many processes are running. */
  int size() {
    running.removeIf(p -> !p.isAlive());
    return running.size();
  }

  /** The running processes. */
  List<ProcessHandle> handles() {
    return running.stream().filter(Process::isAlive).map(Process::toHandle).toList();
  }

  /**
   * At exit, waits for {@code drain} (at most {@code atMost}) before killing the processes still
   * running: the process finishes its turns in flight first.
   */
  static void killAtExitAfter(
      java.util.concurrent.CountDownLatch drain, java.time.Duration atMost) {
    drainWait = java.util.Objects.requireNonNull(atMost, "atMost");
    drained = java.util.Objects.requireNonNull(drain, "drain");
  }

  private void killAllAtExit() {
    java.util.concurrent.CountDownLatch drain = drained;
    if (drain != null) {
      try {
        drain.await(drainWait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    killAll();
  }

  /** Kills every registered process and its descendants. */
  void killAll() {
    List<Process> all = List.copyOf(running);
    for (Process p : all) {
      killTree(p.toHandle());
      running.remove(p);
      ledger.ended(p.toHandle());
    }
    if (!all.isEmpty()) {
      log.info("stopped {} Claude Code CLI process(es)", all.size());
    }
  }

  /**
   * Kills a process and all its descendants, children first reported by the OS, and waits up to 2 s
   * for it to report its exit.
   */
  static void killTree(ProcessHandle handle) {
    signalKill(handle);
    try {
      handle.onExit().get(2, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      log.debug("process {} did not report its exit in time: {}", handle.pid(), e.toString());
    }
  }

  /**
   * Sends the kill signal to a process and all its descendants (those the OS reports before the
   * process dies), without waiting for anything.
   */
  static void signalKill(ProcessHandle handle) {
    List<ProcessHandle> descendants = handle.descendants().toList();
    handle.destroyForcibly();
    descendants.forEach(ProcessHandle::destroyForcibly);
  }

  @Override
  public void close() {
    killAll();
    if (hooked) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down: the hook runs anyway
      }
      hooked = false;
    }
  }
}
