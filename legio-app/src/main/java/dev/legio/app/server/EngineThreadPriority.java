package dev.legio.app.server;

import dev.legio.app.os.LinuxLibc;
import dev.legio.config.EnginePriority;

/**
 * Runs the engine's work below the API's threads ({@code [server] engine_priority}), so that when
 * turns keep every core busy the API's threads get a core first to read a request or write an
 * answer, and {@code /healthz}, {@code /readyz} and refusals stay prompt. Turns lose little: the
 * API's work is a small part of a turn's.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Only on Linux, where a nice value belongs to each thread; elsewhere, and for {@link
 *       EnginePriority#EQUAL}, nothing changes.
 *   <li>{@link #lowerCurrentCarrier} is called by each virtual thread the API starts ({@link
 *       HandOff}, {@link VirtualThreadHandler}); it gives the platform thread carrying it nice
 *       {@value #LOWERED_NICE}, once. Every virtual thread of the process shares those carriers, so
 *       all of them run lowered: turns, the turn listener, event streams, MCP, the gateways' turns.
 *       Platform threads (the API's pool, the lease heartbeat, the JIT, the garbage collector) keep
 *       their priority.
 *   <li>Lowered, not idle: a lowered thread still gets about a tenth of a core against a busy one,
 *       so under a flood of requests turns are slowed, never stopped, and a lease renewal waiting
 *       for a write that a turn's thread leads still gets it. SCHED_IDLE would give the API a core
 *       at once every time (docs/BENCHMARKS.md has the figures) but would stop the turns, and
 *       whatever waits for them, for as long as the API's threads keep the cores busy.
 *   <li>Lowering is one-way: a process without privileges cannot raise it again, so it lasts for
 *       the process's life, and threads and programs started from a lowered thread (a Claude CLI)
 *       inherit it. {@code legio serve} and {@code legio bench api} ask for it; an embedded Legio,
 *       {@code legio say} and {@code legio chat} never do. The API's own threads and the lease
 *       heartbeat are started before any turn runs.
 *   <li>When the C library cannot be called, nothing changes, and the log says so once ({@link
 *       LinuxLibc}).
 * </ul>
 */
public final class EngineThreadPriority {

  /** The nice value of {@link EnginePriority#LOWERED}. */
  static final int LOWERED_NICE = 10;

  /** No change to any thread. */
  public static final EngineThreadPriority UNCHANGED =
      new EngineThreadPriority(EnginePriority.EQUAL);

  private final EnginePriority level;

  private EngineThreadPriority(EnginePriority level) {
    this.level = level;
  }

  /** The engine's threads at {@code level}. */
  public static EngineThreadPriority of(EnginePriority level) {
    return level == EnginePriority.EQUAL ? UNCHANGED : new EngineThreadPriority(level);
  }

  public EnginePriority level() {
    return level;
  }

  /** Lowers the platform thread that runs the caller (its carrier, for a virtual thread). */
  void lowerCurrentCarrier() {
    if (level == EnginePriority.EQUAL || !LinuxLibc.AVAILABLE) {
      return;
    }
    // On Linux, PRIO_PROCESS with who = 0 is the calling thread; never raise a value set higher.
    if (LinuxLibc.getpriority(LinuxLibc.PRIO_PROCESS, 0) < LOWERED_NICE) {
      LinuxLibc.setpriority(LinuxLibc.PRIO_PROCESS, 0, LOWERED_NICE);
    }
  }

  /** The calling thread's nice value, or empty where it cannot be read. */
  static java.util.OptionalInt currentNice() {
    return LinuxLibc.AVAILABLE
        ? java.util.OptionalInt.of(LinuxLibc.getpriority(LinuxLibc.PRIO_PROCESS, 0))
        : java.util.OptionalInt.empty();
  }
}
