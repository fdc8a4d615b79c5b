package dev.legio.app.os;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls of Linux's C library that Legio makes, bound once through JNA's direct mapping: {@code
 * prctl(2)} (the process's secrets, {@code ProcessSecretsGuard}) and {@code getpriority(2)}/{@code
 * setpriority(2)} (the engine threads' nice value, {@code EngineThreadPriority}).
 *
 * <p>Rule: on another system, or where the library cannot be bound, {@link #AVAILABLE} is false and
 * the callers do without, which is said once here.
 */
public final class LinuxLibc {
  private static final Logger log = LoggerFactory.getLogger(LinuxLibc.class);

  /** {@code which} of {@code getpriority}/{@code setpriority}: a process (or thread) id. */
  public static final int PRIO_PROCESS = 0;

  /** Whether the calls below may be made. */
  public static final boolean AVAILABLE = bind();

  private LinuxLibc() {}

  private static boolean bind() {
    if (!Platform.isLinux()) {
      return false;
    }
    try {
      Native.register(LinuxLibc.class, Platform.C_LIBRARY_NAME);
      return true;
    } catch (Throwable e) { // UnsatisfiedLinkError, or JNA's own classes missing
      log.info(
          "cannot call the C library ({}): Legio's process stays readable to the programs it"
              + " starts, and the engine's threads keep the API's priority",
          e.toString());
      return false;
    }
  }

  public static native int prctl(int option, long arg2, long arg3, long arg4, long arg5);

  public static native int getpriority(int which, int who);

  public static native int setpriority(int which, int who, int prio);
}
