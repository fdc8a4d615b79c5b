package dev.legio.app.gateway.webhook;

import dev.legio.app.gateway.GatewayHealth;
import dev.legio.backend.http.HttpFailure;
import dev.legio.errors.FailureText;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replies a webhook gateway owes its platform: kept ({@link OwedReplies}) before the first
 * attempt, sent oldest first on one background thread, forgotten once the platform took them.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li><b>A platform that is down for a while delays a reply, never loses it.</b> A send that
 *       fails for a reason that may pass ({@link Platform#keep}) ends the round with the reply
 *       still owed; the gateway says {@code waiting} (or {@code failing} for a refused credential),
 *       and the next round comes after a back-off doubling from {@link Backoff#first} to {@link
 *       Backoff#max}, until everything owed is sent. Each send already retries briefly as {@link
 *       PlatformCalls} says.
 *   <li><b>A reply the platform refuses for good</b> (a channel that is gone, an interaction whose
 *       token expired) is dropped with a warning, and the ones after it still go; so is one past
 *       its {@link OwedReply#deadline}.
 *   <li><b>Health follows the sends</b>: a send that works while the gateway is {@code waiting}
 *       makes it {@code connected}; a {@code failing} gateway stays so (what made it fail, such as
 *       a missing bot token, is not something a reply proves fixed).
 *   <li><b>One sender among nodes</b>: a round runs only while {@link OwedReplies#takeTurn} holds;
 *       when another node is sending, this one looks again after {@link Backoff#first}.
 *   <li><b>A store that fails</b> (a damaged database) makes the gateway {@code failing} with what
 *       to do; a reply that cannot be kept is sent once, without retries, rather than dropped
 *       unseen, and a store that cannot be read is logged once, not at every round.
 *   <li><b>Closing</b> first sends what is owed (one more round: a reply owed just before the
 *       close, say by a turn that finished in the drain, goes now, not at the next start), for at
 *       most 10 s, then stops after the send in flight; what is still owed stays in its store (and
 *       is sent at the next start when the store is the database).
 * </ul>
 */
public final class ReplyOutbox implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReplyOutbox.class);

  /** How long the outbox waits between rounds while its platform cannot take a reply. */
  public record Backoff(Duration first, Duration max) {
    /** From 2 s, doubling, to 1 min. */
    public static final Backoff STANDARD =
        new Backoff(Duration.ofSeconds(2), Duration.ofMinutes(1));

    Duration after(Duration delay) {
      Duration doubled = delay.multipliedBy(2);
      return doubled.compareTo(max) > 0 ? max : doubled;
    }
  }

  /** How a gateway sends one reply, and what its failures mean. */
  public interface Platform {
    /** Sends {@code reply}; returns once the platform took it, else throws {@link HttpFailure}. */
    void send(OwedReply reply);

    /** True when a reply whose send failed so may still go later (it is kept), false to drop it. */
    boolean keep(HttpFailure failure);

    /** What a user reads for {@code failure}: what happened and what to do; never a secret. */
    String describe(HttpFailure failure);
  }

  private enum Round {
    ALL_SENT,
    BLOCKED,
    ANOTHER_NODE
  }

  private final String gateway;
  private final OwedReplies owed;
  private final Platform platform;
  private final GatewayStatus status;
  private final Backoff backoff;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition woken = lock.newCondition();
  private boolean poked; // guarded by lock
  private volatile boolean closed;
  private volatile boolean draining;
  private volatile boolean blocked;
  private Thread thread;

  public ReplyOutbox(
      String gateway,
      OwedReplies owed,
      Platform platform,
      GatewayStatus status,
      Backoff backoff,
      Clock clock) {
    this.gateway = gateway;
    this.owed = owed;
    this.platform = platform;
    this.status = status;
    this.backoff = backoff;
    this.clock = clock;
  }

  /** Starts sending, beginning with what an earlier run still owes; returns at once. */
  public synchronized void start() {
    if (thread == null && !closed) {
      thread = Thread.ofPlatform().daemon().name("legio-" + gateway + "-outbox").start(this::loop);
    }
  }

  /** Keeps {@code replies} (the messages of one answer, in order) and sends them soon. */
  public void owe(List<OwedReply> replies) {
    owe(replies, owed::add);
  }

  /**
   * Keeps {@code replies} the way {@code keeping} does (in the same store as {@link OwedReplies},
   * with other writes of its own: an inbox's message forgotten with its answer kept), then sends
   * them soon. When {@code keeping} fails they are sent once, as when the store cannot keep them.
   */
  public void owe(List<OwedReply> replies, java.util.function.Consumer<List<OwedReply>> keeping) {
    try {
      keeping.accept(replies);
    } catch (RuntimeException e) {
      sendOnce(replies, e);
      return;
    }
    lock.lock();
    try {
      poked = true;
      woken.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The store cannot keep {@code replies} (a damaged database): the gateway is failing and says so,
   * and they are sent once, without retries, rather than dropped unseen.
   */
  private void sendOnce(List<OwedReply> replies, RuntimeException storeFailure) {
    String why = FailureText.of(storeFailure);
    status.failing(
        "the replies owed cannot be kept ("
            + why
            + "): restore praetorium.db from a backup; meanwhile each is sent once, without"
            + " retries");
    log.error(
        "gateway {}: a reply cannot be kept ({}); it is sent once, without retries", gateway, why);
    for (OwedReply reply : replies) {
      try {
        platform.send(reply);
        status.sent();
      } catch (HttpFailure f) {
        log.warn(
            "gateway {}: a reply in {} was lost: {}", gateway, reply.chat(), platform.describe(f));
      }
    }
  }

  private void loop() {
    Duration delay = backoff.first();
    boolean storeFailing = false;
    while (!closed) {
      boolean lastRound = draining; // read before the round, so that it sends what close found
      Round round;
      try {
        round = round();
        storeFailing = false;
      } catch (RuntimeException e) {
        // the store failed (the database is away): what is owed stays owed; look again later
        if (!storeFailing) {
          log.error(
              "gateway {}: cannot read the replies owed ({}); trying again",
              gateway,
              FailureText.of(e));
          log.debug("gateway {}: the replies owed could not be read", gateway, e);
          status.failing("cannot read the replies owed: " + FailureText.of(e));
          storeFailing = true;
        }
        round = Round.BLOCKED;
      }
      if (lastRound) {
        return;
      }
      switch (round) {
        case ALL_SENT -> {
          delay = backoff.first();
          pause(null);
        }
        case ANOTHER_NODE -> pause(backoff.first());
        case BLOCKED -> {
          pause(delay);
          delay = backoff.after(delay);
        }
      }
    }
  }

  private Round round() {
    if (!owed.takeTurn()) {
      return Round.ANOTHER_NODE;
    }
    try {
      while (!closed) {
        List<OwedReply> now = owed.pending();
        if (now.isEmpty()) {
          return Round.ALL_SENT;
        }
        for (OwedReply reply : now) {
          if (closed) {
            break;
          }
          if (!owed.takeTurn()) {
            return Round.ANOTHER_NODE;
          }
          if (!deliver(reply)) {
            return Round.BLOCKED;
          }
        }
      }
      return Round.ALL_SENT;
    } finally {
      owed.endTurn();
    }
  }

  /** Sends one reply; false when it is still owed and the round must stop. */
  private boolean deliver(OwedReply reply) {
    if (reply.expiredAt(clock.instant())) {
      log.warn(
          "gateway {}: a reply in {} was dropped: the platform no longer takes it (its time ran"
              + " out at {})",
          gateway,
          reply.chat(),
          reply.deadline());
      owed.forget(reply.id());
      return true;
    }
    try {
      platform.send(reply);
    } catch (HttpFailure f) {
      String why = platform.describe(f);
      if (!platform.keep(f)) {
        log.warn(
            "gateway {}: a reply in {} was refused and dropped: {}", gateway, reply.chat(), why);
        owed.forget(reply.id());
        return true;
      }
      if (!blocked) {
        log.warn("gateway {}: a reply in {} is kept to send again: {}", gateway, reply.chat(), why);
      }
      blocked = true;
      String detail = "a reply could not be sent yet, it is kept and sent again: " + why;
      if (f.kind() == HttpFailure.Kind.AUTH) {
        status.failing(detail);
      } else if (status.state() != GatewayHealth.State.FAILING) {
        status.waiting(detail);
      }
      return false;
    }
    owed.forget(reply.id());
    status.sent();
    if (blocked) {
      blocked = false;
      log.info("gateway {}: sending replies again", gateway);
    }
    if (status.state() == GatewayHealth.State.WAITING) {
      status.connected();
    }
    return true;
  }

  /** Waits {@code d} (null: until a reply is owed), or less when closed. */
  private void pause(Duration d) {
    lock.lock();
    try {
      if (d == null) {
        while (!poked && !closed && !draining) {
          woken.await();
        }
      } else {
        long left = d.toNanos();
        while (left > 0 && !closed && !draining) {
          left = woken.awaitNanos(left);
        }
      }
      poked = false;
    } catch (InterruptedException e) {
      closed = true;
    } finally {
      lock.unlock();
    }
  }

  /** How many replies are owed now (for a warning on close). */
  public int owedCount() {
    return owed.pending().size();
  }

  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      t = thread;
    }
    draining = true; // one more round sends what is owed now
    if (t == null) {
      closed = true;
    }
    lock.lock();
    try {
      woken.signalAll();
    } finally {
      lock.unlock();
    }
    if (t != null) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        closed = true;
      }
      if (t.isAlive()) {
        t.interrupt();
        try {
          t.join(2_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
