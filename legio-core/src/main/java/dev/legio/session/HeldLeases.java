package dev.legio.session;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session leases this process holds, kept alive while held and given back when the process
 * stops.
 *
 * <p>Rules:
 *
 * <ol>
 *   <li>Heartbeat: a lease registered with a renewal interval is renewed every interval (a third of
 *       its duration, see {@link #heartbeatFor}) until it is {@linkplain #released released}, so a
 *       turn that runs longer than the lease keeps it. A released lease's next beat leaves the
 *       heartbeat's queue at once: most turns end before their first beat, and the queue holds one
 *       beat per lease held, however many turns a second the process runs.
 *   <li>A renewal that finds the lease no longer this holder's drops it and says so in the log: the
 *       turn has lost its lease, and the store refuses to finish it ({@link LeaseLostException}).
 *   <li>A renewal that fails (database unreachable) is logged and tried again at the next beat.
 *   <li>When the JVM shuts down (SIGTERM, SIGINT/Ctrl-C, {@code System.exit}), every lease still
 *       held is released before it exits, all within {@link #RELEASE_AT_EXIT}. A process that
 *       drains first ({@code legio serve}) says so with {@link #releaseAtExitAfter}: the leases are
 *       kept (and renewed) until its drain ends, so its turns in flight can still finish. A SIGKILL
 *       cannot be caught: that lease stays until its holder is found gone ({@link
 *       LeaseHolder#isGone()}) or it runs out.
 * </ol>
 *
 * Thread-safe.
 */
public final class HeldLeases {
  private static final Logger log = LoggerFactory.getLogger(HeldLeases.class);

  /** The longest the shutdown hook waits for the leases to be released. */
  public static final Duration RELEASE_AT_EXIT = Duration.ofSeconds(5);

  private static final HeldLeases SHARED = new HeldLeases(true);

  /** How one held lease is renewed and released, by the store that took it. */
  public interface Lease {
    /** Extends the lease; false when it is no longer this holder's. */
    boolean renew();

    /** Gives the lease up, if this holder still holds it. */
    void release();
  }

  /** Which lease: a store (by identity), an owner and the holder. */
  private record Key(Object store, String owner, String holder) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Key k
          && k.store == store
          && k.owner.equals(owner)
          && k.holder.equals(holder);
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(store) * 31 + owner.hashCode() * 17 + holder.hashCode();
    }
  }

  private record Held(Lease lease, ScheduledFuture<?> beat) {}

  private final Map<Key, Held> held = new ConcurrentHashMap<>();
  private final boolean releaseAtExit;
  private volatile ScheduledExecutorService heart;
  private volatile boolean hooked;
  private volatile java.util.concurrent.CountDownLatch drained;
  private volatile Duration drainWait = Duration.ZERO;

  /**
   * @param releaseAtExit whether a JVM shutdown hook releases the leases still held
   */
  public HeldLeases(boolean releaseAtExit) {
    this.releaseAtExit = releaseAtExit;
  }

  /** The leases of this process (released at its exit). */
  public static HeldLeases shared() {
    return SHARED;
  }

  /**
   * At exit, waits for {@code drained} (at most {@code atMost}) before releasing the leases still
   * held: the process finishes its turns in flight under their leases first.
   */
  public void releaseAtExitAfter(java.util.concurrent.CountDownLatch drained, Duration atMost) {
    this.drainWait = Objects.requireNonNull(atMost, "atMost");
    this.drained = Objects.requireNonNull(drained, "drained");
  }

  /** A third of {@code duration}, at least 100 ms: renewed that often, a lease never runs out. */
  public static Duration heartbeatFor(Duration duration) {
    Duration third = duration.dividedBy(3);
    return third.compareTo(Duration.ofMillis(100)) < 0 ? Duration.ofMillis(100) : third;
  }

  /**
   * Records that {@code holder} took the lease on {@code owner} in {@code store}; renews it every
   * {@code heartbeat} (null: never) until {@link #released}.
   */
  public void taken(Object store, String owner, String holder, Duration heartbeat, Lease lease) {
    Objects.requireNonNull(lease, "lease");
    Key key = new Key(store, owner, holder);
    ScheduledFuture<?> beat = null;
    if (heartbeat != null) {
      long every = heartbeat.toMillis();
      beat = heart().scheduleWithFixedDelay(() -> renew(key), every, every, TimeUnit.MILLISECONDS);
    }
    Held previous = held.put(key, new Held(lease, beat));
    if (previous != null && previous.beat() != null) {
      previous.beat().cancel(false);
    }
    hookOnce();
  }

  /** Records that the lease was given up (or finished with); its heartbeat stops. */
  public void released(Object store, String owner, String holder) {
    Held gone = held.remove(new Key(store, owner, holder));
    if (gone != null && gone.beat() != null) {
      gone.beat().cancel(false);
    }
  }

  /** Stops keeping the leases of {@code store} (it is closing): no more renewals, no release. */
  public void forget(Object store) {
    for (Key key : List.copyOf(held.keySet())) {
      if (key.store() == store) {
        released(key.store(), key.owner(), key.holder());
      }
    }
  }

  /** Renews every held lease now, as the heartbeat does at each beat. */
  public void renewAll() {
    List.copyOf(held.keySet()).forEach(this::renew);
  }

  /** Whether {@code holder} is known to hold the lease on {@code owner} in {@code store}. */
  public boolean holds(Object store, String owner, String holder) {
    return held.containsKey(new Key(store, owner, holder));
  }

  /** How many leases are held. */
  public int size() {
    return held.size();
  }

  /** How many beats are waiting in the heartbeat's queue (one per lease held with a heartbeat). */
  int pendingBeats() {
    ScheduledExecutorService h = heart;
    return h == null ? 0 : ((ScheduledThreadPoolExecutor) h).getQueue().size();
  }

  private void renew(Key key) {
    Held h = held.get(key);
    if (h == null) {
      return;
    }
    try {
      if (!h.lease().renew()) {
        log.warn(
            "{}: the session lease of {} was taken by another holder while its turn ran; the turn"
                + " will not be stored",
            key.owner(),
            key.holder());
        released(key.store(), key.owner(), key.holder());
      }
    } catch (RuntimeException e) {
      log.warn("{}: renewing the session lease failed (tried again shortly)", key.owner(), e);
    }
  }

  /** Releases every lease still held (the shutdown hook calls it), each failure logged. */
  public void releaseAll() {
    for (Map.Entry<Key, Held> entry : List.copyOf(held.entrySet())) {
      Key key = entry.getKey();
      try {
        entry.getValue().lease().release();
        log.info("{}: session lease released at exit", key.owner());
      } catch (RuntimeException e) {
        log.warn("{}: releasing the session lease at exit failed", key.owner(), e);
      }
      released(key.store(), key.owner(), key.holder());
    }
  }

  /**
   * Starts the heartbeat's thread now, on the caller's priority. A process that lowers the threads
   * its turns run on ({@code legio serve}) calls this first: a thread started later from a turn
   * would inherit the turn's lower priority, and a heartbeat that waits for a core can let a lease
   * run out while its turn is still running.
   */
  public void startHeartbeat() {
    heart().execute(() -> {});
  }

  private ScheduledExecutorService heart() {
    ScheduledExecutorService h = heart;
    if (h == null) {
      synchronized (this) {
        if (heart == null) {
          ScheduledThreadPoolExecutor beats =
              new ScheduledThreadPoolExecutor(
                  1, Thread.ofPlatform().daemon().name("legio-lease-heartbeat").factory());
          // A lease released before its first beat (most turns) takes its beat out of the queue:
          // left in, every beat would wait out its delay and wake the thread for nothing, one
          // per turn, and a busy server would hold a turn rate times a heartbeat of them.
          beats.setRemoveOnCancelPolicy(true);
          heart = beats;
        }
        h = heart;
      }
    }
    return h;
  }

  private void hookOnce() {
    if (!releaseAtExit || hooked) {
      return;
    }
    synchronized (this) {
      if (hooked) {
        return;
      }
      hooked = true;
      try {
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(
                    () -> {
                      java.util.concurrent.CountDownLatch gate = drained;
                      if (gate != null) {
                        try {
                          gate.await(drainWait.toMillis(), TimeUnit.MILLISECONDS);
                        } catch (InterruptedException e) {
                          Thread.currentThread().interrupt();
                        }
                      }
                      Thread releasing =
                          Thread.ofPlatform()
                              .daemon()
                              .name("legio-lease-release")
                              .start(this::releaseAll);
                      try {
                        releasing.join(RELEASE_AT_EXIT);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    },
                    "legio-lease-release-at-exit"));
      } catch (IllegalStateException shuttingDown) {
        // the JVM is already exiting; nothing more can be registered
      }
    }
  }
}
