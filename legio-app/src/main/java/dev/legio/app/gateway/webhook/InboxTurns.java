package dev.legio.app.gateway.webhook;

import dev.legio.app.conversation.Speaker;
import dev.legio.errors.FailureText;
import dev.legio.session.RequestKey;
import dev.legio.store.gateway.GatewayInbox;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turns a webhook gateway owes for the messages it took in: a message is kept in Legio's
 * database ({@link GatewayInbox}) before the platform hears that it arrived, and forgotten only in
 * the transaction that keeps its answer for the {@link ReplyOutbox}. A process killed during the
 * turn (a {@code kill -9}, a crash, a node lost) leaves it to the next process that looks.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li><b>Taken in once</b> ({@link #takeIn}): a message delivered again (the platform's retry, a
 *       second event of the same message) is not taken in again, on any node; a message taken in
 *       has its turn started at once, through {@link ChannelTurns}.
 *   <li><b>Claimed while this process lives</b>: its claims are renewed every third of {@code
 *       claim} ({@code [sessions] lease_ttl_seconds}), so another node takes none of them over.
 *   <li><b>Orphans are answered</b>: at start and then every third of {@code claim}, messages whose
 *       process is gone (on this host: at once; on another: when its claim ran out) are taken over,
 *       one process each, and their turns run again under the message's {@link RequestKey}: the
 *       request is logged once, and an agent whose answer was logged before the kill answers with
 *       it and runs no turn. A gateway may give orphans an age past which they are dropped with a
 *       warning instead (Discord: an answer days late is no answer).
 *   <li><b>Answered once</b>: the answer is kept only while this process still claims the message
 *       (another that took it over answers instead). An answer the database cannot keep is sent
 *       once by the outbox, and the message forgotten if the database lets it be. A gateway that
 *       answers from this process alone ({@link FromThisProcess}: Discord, with a token held in
 *       memory) forgets the message once the answer is sent; a kill in between makes the next
 *       process answer it again, a duplicate rather than a loss.
 *   <li><b>Stopping</b>: once Legio stops taking messages ({@link #stopTakingOver}) no orphan is
 *       taken over, and the claims of the turns still running are renewed until {@link #close}. A
 *       turn the shutdown cuts is not answered with its note: the message stays, and the next
 *       process answers it (the note is no answer to a request sent again).
 * </ul>
 */
public final class InboxTurns implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(InboxTurns.class);

  /** How a gateway cuts and escapes a message's answer into the replies its platform takes. */
  @FunctionalInterface
  public interface Replies {
    List<OwedReply> of(GatewayInbox.Message message, String answer);
  }

  /**
   * A gateway that can answer some messages better from the process that took them in (Discord:
   * with the interaction's token, a credential held in this process's memory only). Such an answer
   * is not kept in the database; the message stays in the inbox, claimed, until {@code sent} runs,
   * so a process that dies first leaves it to the next one, which answers through {@link Replies}.
   * A kill between the send and {@code sent} makes the next process answer it a second time: a
   * duplicate, never a loss.
   */
  @FunctionalInterface
  public interface FromThisProcess {
    /**
     * Takes {@code message}'s answer to send, then to run {@code sent} once every part was sent (or
     * refused for good); false to leave it to {@link Replies} and the shared outbox.
     */
    boolean take(GatewayInbox.Message message, String answer, Runnable sent);

    /**
     * The shutdown cut {@code message}'s turn: the gateway may tell its user from this process, and
     * runs {@code forget} when no other process could answer the message (the next process would
     * otherwise answer it). By default nothing is said and the message stays.
     *
     * @return true when the message was forgotten, false when it stays for the next process
     */
    default boolean cut(GatewayInbox.Message message, Runnable forget) {
      return false;
    }

    /** No message is answered from this process alone (Slack). */
    FromThisProcess NONE = (message, answer, sent) -> false;
  }

  private final String gateway;
  private final GatewayInbox inbox;
  private final ChannelTurns turns;
  private final ReplyOutbox outbox;
  private final Replies replies;
  private final FromThisProcess fromThisProcess;
  private final Duration staleAfter;
  private final Duration claim;
  private final Clock clock;
  private final GatewayInbox.Claimant me = GatewayInbox.Claimant.thisProcess();
  private final Object sleep = new Object();
  private volatile boolean closed;
  private volatile boolean takingOver = true;
  private Thread rounds;

  /**
   * @param claim how long a claim lasts unless renewed ({@code [sessions] lease_ttl_seconds})
   */
  public InboxTurns(
      String gateway,
      GatewayInbox inbox,
      ChannelTurns turns,
      ReplyOutbox outbox,
      Replies replies,
      Duration claim,
      Clock clock) {
    this(gateway, inbox, turns, outbox, replies, FromThisProcess.NONE, null, claim, clock);
  }

  /**
   * As {@link #InboxTurns(String, GatewayInbox, ChannelTurns, ReplyOutbox, Replies, Duration,
   * Clock)}, with answers that {@code fromThisProcess} may take before {@code replies} are made,
   * and orphans taken in more than {@code staleAfter} ago (null: never) dropped instead of
   * answered.
   */
  public InboxTurns(
      String gateway,
      GatewayInbox inbox,
      ChannelTurns turns,
      ReplyOutbox outbox,
      Replies replies,
      FromThisProcess fromThisProcess,
      Duration staleAfter,
      Duration claim,
      Clock clock) {
    this.gateway = gateway;
    this.inbox = inbox;
    this.turns = turns;
    this.outbox = outbox;
    this.replies = replies;
    this.fromThisProcess = fromThisProcess;
    this.staleAfter = staleAfter;
    this.claim = claim;
    this.clock = clock;
  }

  /**
   * Takes {@code message} in under its platform's {@code deliveryIds} (remembered for {@code keep})
   * and starts its turn; false when it was taken in before (nothing runs). Throws when the database
   * cannot keep it: the platform must then hear of a failure, so that it delivers the message
   * again.
   */
  public boolean takeIn(GatewayInbox.Message message, List<String> deliveryIds, Duration keep) {
    long id =
        inbox.takeIn(message, deliveryIds, keep, me, clock.instant(), clock.instant().plus(claim));
    if (id == 0) {
      return false;
    }
    run(id, message);
    return true;
  }

  /** Starts the rounds that renew this process's claims and answer orphans; returns at once. */
  public synchronized void start() {
    if (rounds == null && !closed) {
      rounds = Thread.ofPlatform().daemon().name("legio-" + gateway + "-inbox").start(this::loop);
    }
  }

  private void loop() {
    boolean failing = false;
    while (!closed) {
      try {
        inbox.renew(me, clock.instant().plus(claim));
        List<GatewayInbox.Kept> orphans =
            takingOver ? inbox.orphans(gateway, me, clock.instant()) : List.of();
        for (GatewayInbox.Kept orphan : orphans) {
          if (closed || !takingOver) {
            break;
          }
          if (stale(orphan)) {
            if (inbox.takeOver(orphan, me, clock.instant().plus(claim))) {
              inbox.answer(orphan.id(), me, List.of(), clock.instant());
              log.warn(
                  "gateway {}: a message in {} taken in at {} was dropped unanswered: its process"
                      + " stopped, and it is older than {}",
                  gateway,
                  orphan.message().chatId(),
                  orphan.receivedAt(),
                  staleAfter);
            }
            continue;
          }
          if (inbox.takeOver(orphan, me, clock.instant().plus(claim))) {
            log.info(
                "gateway {}: a message in {} whose turn a stopped process had begun is answered"
                    + " here",
                gateway,
                orphan.message().chatId());
            run(orphan.id(), orphan.message());
          }
        }
        if (failing) {
          log.info("gateway {}: the messages taken in are checked again", gateway);
          failing = false;
        }
      } catch (RuntimeException e) {
        if (!failing) { // once per streak, not at every round
          log.warn(
              "gateway {}: the messages taken in could not be checked ({}); trying again every"
                  + " {} s",
              gateway,
              FailureText.of(e),
              Math.max(1, claim.toSeconds() / 3));
          failing = true;
        }
      }
      synchronized (sleep) {
        if (!closed) {
          try {
            sleep.wait(Math.max(1, claim.toMillis() / 3));
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    }
  }

  /** True when {@code orphan} is too old to be answered now ({@code staleAfter}). */
  private boolean stale(GatewayInbox.Kept orphan) {
    return staleAfter != null && orphan.receivedAt().plus(staleAfter).isBefore(clock.instant());
  }

  private void run(long id, GatewayInbox.Message message) {
    turns.run(
        message.channel(),
        Speaker.of(message.userId(), message.userName()),
        message.text(),
        requestKey(message),
        new ChannelTurns.Answer() {
          @Override
          public void send(String answer) {
            if (!fromThisProcess.take(message, answer, () -> forget(id))) {
              outbox.owe(replies.of(message, answer), owed -> keep(id, owed));
            }
          }

          @Override
          public void interrupted(String note) {
            boolean dropped = fromThisProcess.cut(message, () -> forget(id));
            log.info(
                "gateway {}: a turn in {} was cut by the shutdown; {}",
                gateway,
                message.chatId(),
                dropped
                    ? "no other process can answer it, so it is dropped"
                    : "the next process answers it");
          }
        });
  }

  /** Keeps the answer and forgets the message in one transaction, while this process claims it. */
  private void keep(long id, List<OwedReply> owed) {
    try {
      if (!inbox.answer(
          id, me, owed.stream().map(SharedOwedReplies::outbound).toList(), clock.instant())) {
        log.info(
            "gateway {}: another process took over a message this one answered; it answers it",
            gateway);
      }
    } catch (RuntimeException e) {
      try {
        inbox.answer(id, me, List.of(), clock.instant()); // forgotten, since the outbox sends it
      } catch (RuntimeException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
  }

  /**
   * Forgets message {@code id}, answered from this process; a failure leaves it to the next process
   * that looks (which answers it again).
   */
  private void forget(long id) {
    try {
      inbox.answer(id, me, List.of(), clock.instant());
    } catch (RuntimeException e) {
      log.warn(
          "gateway {}: a message answered here could not be marked answered ({}); the next"
              + " process may answer it again",
          gateway,
          FailureText.of(e));
    }
  }

  /** The key that makes every run of the message's turn one request; null when it cannot be one. */
  private RequestKey requestKey(GatewayInbox.Message message) {
    try {
      return new RequestKey("gateway:" + gateway, message.messageKey());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Takes over no more orphans (Legio is stopping: the next process will), while the claims of the
   * turns still running here are renewed until {@link #close}.
   */
  public void stopTakingOver() {
    takingOver = false;
  }

  @Override
  public void close() {
    closed = true;
    synchronized (sleep) {
      sleep.notifyAll();
    }
    Thread t;
    synchronized (this) {
      t = rounds;
    }
    if (t != null) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
