package dev.legio.session;

import java.net.InetAddress;
import java.util.Objects;

/**
 * The process that holds a session lease: its host name and process id, recorded with the lease.
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>A holder is {@linkplain #isGone() gone} when it ran on this host and no process with its
 *       pid is alive here any more: its lease can be freed at once.
 *   <li>A holder on another host is never judged gone here (its lease runs out, renewed by its
 *       heartbeat while it lives); nor is this very process.
 *   <li>A pid reused by another process makes a dead holder look alive: its lease then runs out as
 *       it would have without this check (safe, only slower).
 *   <li>The host is the environment variable {@link #NODE_NAME_ENV} when set (a container's pod
 *       name; nodes that share a kernel but must not judge each other's pids, as {@code legio bench
 *       cluster --separate-hosts} does), else the kernel's host name.
 * </ol>
 */
public record LeaseHolder(String host, long pid) {
  /** The environment variable that names this node's host for leases, when set. */
  public static final String NODE_NAME_ENV = "LEGIO_NODE_NAME";

  private static final LeaseHolder THIS_PROCESS =
      new LeaseHolder(localHostName(), ProcessHandle.current().pid());

  public LeaseHolder {
    Objects.requireNonNull(host, "host");
  }

  /** This process, on this host. */
  public static LeaseHolder thisProcess() {
    return THIS_PROCESS;
  }

  /** Whether the holder ran on this host and its process has ended. */
  public boolean isGone() {
    if (!host.equals(THIS_PROCESS.host) || pid == THIS_PROCESS.pid || pid <= 0) {
      return false;
    }
    return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
  }

  @Override
  public String toString() {
    return "pid " + pid + " on " + host;
  }

  private static String localHostName() {
    String named = System.getenv(NODE_NAME_ENV);
    if (named != null && !named.isBlank()) {
      return named.strip();
    }
    // The kernel's name first: the same in every process, whatever their environment.
    try {
      String kernel =
          java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname"));
      if (!kernel.isBlank()) {
        return kernel.strip();
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not Linux: ask the resolver
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      return "localhost";
    }
  }
}
