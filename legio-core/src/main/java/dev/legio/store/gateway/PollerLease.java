package dev.legio.store.gateway;

import dev.legio.session.JobLeases;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The right to poll one platform, held by one node at a time among the nodes sharing Legio's
 * database: the singleton-job lease {@code poller:GATEWAY} of {@link JobLeases}, the same lease the
 * daily cleanups run under.
 *
 * <p>Rules: {@link #hold()} takes the lease when it is free, expired or its holder's process is
 * gone, or renews it when this holder has it, for its TTL from now; the holder calls it at least
 * every third of the TTL while polling. A holder that dies stops renewing and another node's {@link
 * #hold()} succeeds once the TTL has passed ({@code [sessions] lease_ttl_seconds}, 30 s by default:
 * a takeover within a minute). {@link #release()} frees it at once on a clean stop.
 */
public final class PollerLease {
  private final JobLeases leases;
  private final String job;
  private final String holder;
  private final Duration ttl;
  private final Clock clock;

  public PollerLease(JobLeases leases, String gateway, String holder, Duration ttl, Clock clock) {
    this.leases = Objects.requireNonNull(leases);
    this.job = "poller:" + Objects.requireNonNull(gateway);
    this.holder = Objects.requireNonNull(holder);
    this.ttl = Objects.requireNonNull(ttl);
    this.clock = Objects.requireNonNull(clock);
  }

  /** Takes or renews the lease; true when this holder has it now. */
  public boolean hold() {
    return leases.tryTake(job, holder, clock.instant(), ttl);
  }

  /** Gives the lease up if this holder has it. */
  public void release() {
    leases.release(job, holder);
  }

  /** Who holds the lease now (it has not run out), if anyone. */
  public Optional<String> holderNow() {
    return leases.holderOf(job, clock.instant());
  }
}
