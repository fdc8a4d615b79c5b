package dev.legio.session;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Background jobs that run on one Legio node at a time when several share one database, and move to
 * another node when that one dies: each job is a lease in {@link JobLeases}, kept by a heartbeat
 * like a session's.
 *
 * <p>How to use it: every node schedules the job as it would alone, and wraps the run in {@link
 * #runIfHolder}:
 *
 * <pre>{@code
 * SingletonJobs jobs = app.singletonJobs();
 * scheduler.scheduleWithFixedDelay(
 *     () -> jobs.runIfHolder("telegram-poller", poller::pollOnce), 0, 1, SECONDS);
 * // or: Runnable task = jobs.singleton("daily-cleanup", cleanup);
 * }</pre>
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>{@link #runIfHolder runIfHolder(name, task)} runs {@code task} on the calling thread when
 *       this node holds job {@code name}'s lease or can take it (free, run out, or its holder's
 *       process is gone from this host), and returns true; otherwise it runs nothing and returns
 *       false (another node has the job). It never runs one job's task twice at once on this node.
 *   <li>Once taken, the lease is kept after the run: renewed every third of {@code ttl} by a
 *       heartbeat ({@link HeldLeases}) for as long as this node lives, so the job stays here and
 *       the other nodes skip it, even when the job runs less often than {@code ttl} (a daily
 *       cleanup).
 *   <li>A node that dies (SIGKILL, a lost machine) stops renewing: its jobs are free after {@code
 *       ttl} at most, and the first other node to reach its next run takes each one over. On a
 *       clean stop {@link #handBack} (or the JVM's exit) releases them at once.
 *   <li>A node that pauses for longer than {@code ttl} may find, when it resumes, that its job
 *       moved: its heartbeat drops the lease and its next {@code runIfHolder} skips. A run already
 *       under way when the pause began ends normally, so jobs must tolerate one overlapping run
 *       (Legio's are idempotent cleanups and consolidations under their own locks).
 *   <li>A task that throws is the caller's to handle (the exception passes through); the lease is
 *       kept. A database that cannot be reached makes {@code runIfHolder} skip the run (logged).
 * </ol>
 *
 * Thread-safe. Time comes from the injected {@link Clock}; tests move it and call {@link
 * HeldLeases#renewAll} instead of waiting for the heartbeat.
 */
public final class SingletonJobs implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SingletonJobs.class);

  private final JobLeases leases;
  private final String holder;
  private final Duration ttl;
  private final Clock clock;
  private final HeldLeases held;
  private final Set<String> running = ConcurrentHashMap.newKeySet();

  /** Every job this node has taken at some time (those it may have to hand back). */
  private final Set<String> known = ConcurrentHashMap.newKeySet();

  private final Duration heartbeat;

  /**
   * @param ttl how long a lease lasts without renewal ({@code [sessions] lease_ttl_seconds})
   * @param held where the leases are kept alive and released at exit ({@link HeldLeases#shared()}
   *     in production)
   */
  public SingletonJobs(JobLeases leases, Duration ttl, Clock clock, HeldLeases held) {
    this(leases, "legio-" + UUID.randomUUID(), ttl, clock, held, HeldLeases.heartbeatFor(ttl));
  }

  /**
   * @param holder this node's name in the lease table (unique per node)
   * @param heartbeat how often held leases are renewed; null: only by {@link HeldLeases#renewAll}
   *     (tests that move a clock by hand)
   */
  public SingletonJobs(
      JobLeases leases,
      String holder,
      Duration ttl,
      Clock clock,
      HeldLeases held,
      Duration heartbeat) {
    this.heartbeat = heartbeat;
    this.leases = Objects.requireNonNull(leases, "leases");
    this.holder = Objects.requireNonNull(holder, "holder");
    this.ttl = Objects.requireNonNull(ttl, "ttl");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.held = Objects.requireNonNull(held, "held");
  }

  /** Runs {@code task} if this node holds (or now takes) job {@code name}; see the rules. */
  public boolean runIfHolder(String name, Runnable task) {
    Objects.requireNonNull(task, "task");
    if (!take(name)) {
      return false;
    }
    if (!running.add(name)) {
      return false; // this node is running it already
    }
    try {
      task.run();
      return true;
    } finally {
      running.remove(name);
    }
  }

  /** {@code task} wrapped in {@link #runIfHolder}: for schedulers that take a {@link Runnable}. */
  public Runnable singleton(String name, Runnable task) {
    Objects.requireNonNull(task, "task");
    return () -> runIfHolder(name, task);
  }

  /** Whether this node holds job {@code name} now (as far as its heartbeat knows). */
  public boolean holds(String name) {
    return held.holds(this, key(name), holder);
  }

  /** Which node holds job {@code name} now, by its holder name; empty when none. */
  public Optional<String> holderOf(String name) {
    return leases.holderOf(name, clock.instant());
  }

  /** This node's name in the lease table. */
  public String holder() {
    return holder;
  }

  /** Releases every job lease this node holds, so another node takes the jobs at once. */
  public void handBack() {
    for (String job : heldJobs()) {
      try {
        leases.release(job, holder);
        log.info("job '{}' handed back", job);
      } catch (RuntimeException e) {
        log.warn("handing job '{}' back failed; it moves when its lease runs out", job, e);
      }
      held.released(this, key(job), holder);
    }
  }

  /** Hands the jobs back ({@link #handBack}). */
  @Override
  public void close() {
    handBack();
  }

  private Set<String> heldJobs() {
    Set<String> out = new java.util.TreeSet<>();
    for (String job : known) {
      if (holds(job)) {
        out.add(job);
      }
    }
    return out;
  }

  private boolean take(String name) {
    boolean wasHeld = holds(name);
    boolean taken;
    try {
      taken = leases.tryTake(name, holder, clock.instant(), ttl);
    } catch (RuntimeException e) {
      log.warn("job '{}' skipped: its lease could not be read", name, e);
      return false;
    }
    if (!taken) {
      if (wasHeld) {
        log.warn("job '{}' moved to another node", name);
        held.released(this, key(name), holder);
      }
      return false;
    }
    if (!wasHeld) {
      known.add(name);
      log.info("job '{}' runs on this node ({}) from now on", name, holder);
      held.taken(
          this,
          key(name),
          holder,
          heartbeat,
          new HeldLeases.Lease() {
            @Override
            public boolean renew() {
              return leases.renew(name, holder, clock.instant(), ttl);
            }

            @Override
            public void release() {
              leases.release(name, holder);
            }
          });
    }
    return true;
  }

  private static String key(String name) {
    return "job:" + name;
  }
}
