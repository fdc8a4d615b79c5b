package dev.legio.session;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Where the leases of singleton background jobs are kept: the same database as the sessions, so
 * every Legio node sharing it agrees on which node runs each job ({@link SingletonJobs} uses it).
 *
 * <p>Rules every implementation keeps:
 *
 * <ol>
 *   <li>A job's lease is held by at most one holder at a time. {@link #tryTake} succeeds when no
 *       one holds it, when the current lease has run out ({@code until} before {@code now}), when
 *       its holder is gone ({@link LeaseHolder#isGone()}: a process on this host that ended), or
 *       when the caller already holds it (which extends it). It is atomic between processes.
 *   <li>{@link #renew} extends the lease only for its holder, even one that ran out but that no one
 *       took; false when another holder has it (the job moved).
 *   <li>{@link #release} frees the lease only for its holder.
 * </ol>
 *
 * Implementations are thread-safe.
 */
public interface JobLeases {
  /** Takes (or extends) {@code job}'s lease for {@code holder} until {@code now + ttl}. */
  boolean tryTake(String job, String holder, Instant now, Duration ttl);

  /** Extends {@code holder}'s lease on {@code job} until {@code now + ttl}; false if not its. */
  boolean renew(String job, String holder, Instant now, Duration ttl);

  /** Gives {@code job}'s lease up, if {@code holder} holds it. */
  void release(String job, String holder);

  /** Who holds {@code job}'s lease at {@code now} (it has not run out), if anyone. */
  Optional<String> holderOf(String job, Instant now);
}
