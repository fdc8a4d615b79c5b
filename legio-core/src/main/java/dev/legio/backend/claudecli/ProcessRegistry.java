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
 */
final class ProcessRegistry implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ProcessRegistry.class);

  private final Set<Process> running = ConcurrentHashMap.newKeySet();
  private final Thread hook = new Thread(this::killAll, "legio-claude-cli-reaper");
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

  /** Kills a process and all its descendants, children first reported by the OS. */
  static void killTree(ProcessHandle handle) {
    List<ProcessHandle> descendants = handle.descendants().toList();
    handle.destroyForcibly();
    descendants.forEach(ProcessHandle::destroyForcibly);
    try {
      handle.onExit().get(2, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      log.debug("process {} did not report its exit in time: {}", handle.pid(), e.toString());
    }
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
