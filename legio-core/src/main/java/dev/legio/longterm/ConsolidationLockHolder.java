package dev.legio.longterm;

import dev.legio.session.LeaseHolder;
import java.time.Instant;
import java.util.Objects;

/**
 * The process that holds a {@link ConsolidationLock}, recorded in the lock file: its host name, its
 * pid and the instant it started (null when the system does not say).
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>A holder is {@linkplain #isGone() gone} when it ran on this host and either no process with
 *       its pid is alive here ({@link LeaseHolder#isGone()}), or the process with that pid started
 *       at another instant (the pid was reused after the holder ended). Its lock is taken over at
 *       once.
 *   <li>A holder on another host is never judged gone here, nor is this very process: its lock
 *       turns stale when no heartbeat renews it for {@code dream_lock_stale_minutes}.
 *   <li>The host is {@link LeaseHolder}'s ({@code LEGIO_NODE_NAME}, else the kernel's host name),
 *       so a lock and a session lease name a process the same way.
 * </ol>
 */
public record ConsolidationLockHolder(String host, long pid, Instant started) {
  public ConsolidationLockHolder {
    Objects.requireNonNull(host, "host");
  }

  /** This process, on this host. */
  public static ConsolidationLockHolder thisProcess() {
    ProcessHandle self = ProcessHandle.current();
    return new ConsolidationLockHolder(
        LeaseHolder.thisProcess().host(), self.pid(), self.info().startInstant().orElse(null));
  }

  /** Whether the holder ran on this host and its process has ended (see the class comment). */
  public boolean isGone() {
    LeaseHolder lease = new LeaseHolder(host, pid);
    if (lease.isGone()) {
      return true;
    }
    LeaseHolder self = LeaseHolder.thisProcess();
    if (!host.equals(self.host()) || pid == self.pid() || started == null) {
      return false;
    }
    return ProcessHandle.of(pid)
        .flatMap(p -> p.info().startInstant())
        .map(start -> !start.equals(started))
        .orElse(false);
  }

  @Override
  public String toString() {
    return "pid " + pid + " on " + host + (started == null ? "" : " (started " + started + ")");
  }
}
