package dev.legio.app;

import dev.legio.app.os.LinuxLibc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the secrets in Legio's process from the programs it starts: the Claude Code CLI, and the
 * shell commands its agents run under the same user.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The gateways' tokens are withheld from the CLI's environment ({@link CliEnvironment}), but
 *       a process of the same user may still read Legio's own: {@code /proc/PID/environ} holds the
 *       environment Legio was started with, every secret in it, and {@code /proc/PID/mem} its
 *       memory. On Linux, Legio's process is made non-dumpable ({@code prctl(PR_SET_DUMPABLE, 0)},
 *       as ssh-agent and gpg-agent do): those files then belong to root, and only a process with
 *       {@code CAP_SYS_PTRACE} may read them. No core dump is written either (it would hold the
 *       secrets too).
 *   <li>The JVM's attach mechanism ({@code jcmd}, {@code jstack}, profilers) checks only the
 *       caller's user, not dumpability: through it a heap dump holds every secret. It can only be
 *       turned off at the JVM's start ({@code -XX:+DisableAttachMechanism}, which {@code ./legio}
 *       passes unless {@code LEGIO_ALLOW_JVM_ATTACH=1}); when it is on, the guard says so once, as
 *       a warning naming the flag ({@link Guarded#attachDisabled}).
 *   <li>Applied first thing in {@code legio}'s {@code main} ({@link #atStart}), unless {@code
 *       LEGIO_ALLOW_JVM_ATTACH=1}, and again, with the warning above, when the Claude CLI back-end
 *       is built, before the first CLI process starts; {@code [backend.claude_cli]
 *       hide_secrets_from_agents = false} makes the process dumpable again there. What stays open:
 *       the launcher's shell and the JVM's own start, a fraction of a second at each start.
 *   <li>Once for the process's life (the kernel resets it only at {@code exec}); elsewhere than on
 *       Linux, or when the C library cannot be called, nothing changes and the log says so once.
 * </ul>
 */
public final class ProcessSecretsGuard {
  private static final Logger log = LoggerFactory.getLogger(ProcessSecretsGuard.class);

  static final int PR_GET_DUMPABLE = 3;
  static final int PR_SET_DUMPABLE = 4;

  /**
   * What the guard achieved.
   *
   * @param environmentHidden the process is non-dumpable: its environment and memory are closed to
   *     its user's other processes
   * @param attachDisabled the JVM takes no attach ({@code -XX:+DisableAttachMechanism})
   */
  record Guarded(boolean environmentHidden, boolean attachDisabled) {}

  private static Guarded applied;

  private ProcessSecretsGuard() {}

  /**
   * Makes the process non-dumpable before anything else runs ({@code legio}'s {@code main}), so
   * that its environment is closed from its first moments, not only once the CLI back-end is built:
   * a program an agent left running could otherwise read it at the next start. Not when {@code
   * LEGIO_ALLOW_JVM_ATTACH=1} (someone is debugging). Silent: logging is not set up yet; {@link
   * #apply} warns later if need be, and {@link #lift} undoes it for {@code hide_secrets_from_agents
   * = false}.
   */
  public static void atStart(java.util.Map<String, String> env) {
    if (!"1".equals(env.get("LEGIO_ALLOW_JVM_ATTACH")) && LinuxLibc.AVAILABLE) {
      LinuxLibc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
  }

  /** Makes the process dumpable again ({@code hide_secrets_from_agents = false}). */
  static synchronized void lift() {
    if (LinuxLibc.AVAILABLE) {
      LinuxLibc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    }
    applied = null;
  }

  /** Makes this process non-dumpable, and says when the JVM still takes an attach. */
  static synchronized Guarded apply() {
    if (applied != null) {
      return applied;
    }
    boolean hidden =
        LinuxLibc.AVAILABLE && LinuxLibc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 && !dumpable();
    if (LinuxLibc.AVAILABLE && !hidden) {
      log.warn(
          "could not make Legio's process unreadable to the programs it starts (prctl failed);"
              + " the Claude CLI's agents could read Legio's environment");
    }
    boolean attachDisabled = attachDisabled();
    if (hidden && !attachDisabled) {
      log.warn(
          "Legio's JVM takes jcmd and profilers: a program of its user, such as a command an agent"
              + " runs, could dump its memory, secrets included; start it with"
              + " -XX:+DisableAttachMechanism (./legio does unless LEGIO_ALLOW_JVM_ATTACH=1)");
    }
    applied = new Guarded(hidden, attachDisabled);
    return applied;
  }

  /** True when the JVM was started with {@code -XX:+DisableAttachMechanism}. */
  static boolean attachDisabled() {
    try {
      return Boolean.parseBoolean(
          java.lang.management.ManagementFactory.getPlatformMXBean(
                  com.sun.management.HotSpotDiagnosticMXBean.class)
              .getVMOption("DisableAttachMechanism")
              .getValue());
    } catch (RuntimeException e) { // not HotSpot, or no such option
      return false;
    }
  }

  /** True when this process may be read by its user's other processes (or when unknown). */
  static boolean dumpable() {
    return !LinuxLibc.AVAILABLE || LinuxLibc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0;
  }
}
