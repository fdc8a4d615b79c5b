package dev.legio.app;

import com.sun.jna.Native;
import com.sun.jna.Platform;
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
 *   <li>Applied before the first CLI process starts, when the Claude CLI back-end is built, unless
 *       {@code [backend.claude_cli] hide_secrets_from_agents = false}: a non-dumpable process
 *       cannot be attached to by {@code jcmd}, {@code jstack} or profilers run by its user.
 *   <li>Once for the process's life (the kernel resets it only at {@code exec}); elsewhere than on
 *       Linux, or when the C library cannot be called, nothing changes and the log says so once.
 * </ul>
 */
final class ProcessSecretsGuard {
  private static final Logger log = LoggerFactory.getLogger(ProcessSecretsGuard.class);

  static final int PR_GET_DUMPABLE = 3;
  static final int PR_SET_DUMPABLE = 4;

  private static volatile boolean applied;

  private ProcessSecretsGuard() {}

  /** Makes this process non-dumpable; true when it is (now or before). */
  static synchronized boolean apply() {
    if (applied) {
      return true;
    }
    if (!Libc.AVAILABLE) {
      return false;
    }
    if (Libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 || dumpable()) {
      log.warn(
          "could not make Legio's process unreadable to the programs it starts (prctl failed);"
              + " the Claude CLI's agents could read Legio's environment");
      return false;
    }
    applied = true;
    log.debug("Legio's process is non-dumpable: its environment and memory are hidden");
    return true;
  }

  /** True when this process may be read by its user's other processes (or when unknown). */
  static boolean dumpable() {
    return !Libc.AVAILABLE || Libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0;
  }

  /** prctl(2) of the C library, bound once. */
  private static final class Libc {
    static final boolean AVAILABLE = bind();

    private static boolean bind() {
      if (!Platform.isLinux()) {
        return false;
      }
      try {
        Native.register(Libc.class, Platform.C_LIBRARY_NAME);
        return true;
      } catch (Throwable e) { // UnsatisfiedLinkError, or JNA's own classes missing
        log.info(
            "cannot call the C library ({}); Legio's process stays readable to the programs it"
                + " starts",
            e.toString());
        return false;
      }
    }

    static native int prctl(int option, long arg2, long arg3, long arg4, long arg5);
  }
}
