package dev.legio.session;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.SessionLostException;
import dev.legio.backend.TurnResult;
import dev.legio.backend.TurnStart;
import dev.legio.config.SessionSettings;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one turn of an owner's session for one logged request, in the owner's {@link TurnQueue}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A request still waiting in this process after {@code lock_wait} gets a "busy" answer then,
 *       not once the turns before it have ended; one whose lease another process holds for the rest
 *       of that wait gets one too. Neither reaches the model; the request stays logged.
 *   <li>The session is prepared by the {@link SessionLifecycle}; a session continued past its token
 *       threshold is condensed first ({@link SessionCondenser}); the text sent is what the {@link
 *       HistoryInjector} composes (after the condensed session's brief). A back-end that lost the
 *       conversation gets the turn again on a fresh session, counted as {@link
 *       RebuildReason#BACKEND_LOST}, with the same {@link TurnStart}: a back-end's turn time-out
 *       bounds both sends together.
 *   <li>The reply (blank: {@code (no answer)}) is logged from the owner's speaker to its reply
 *       audience, replying to the request, in one transaction with the updated record (tokens,
 *       messages, last injected sequence, expiry, context use) and the release of the lease.
 *   <li>A failure answers {@code [owner] An error occurred during processing.} (the cause goes to
 *       the log file); a turn whose answer came but could not be stored (Legio's own store failed)
 *       answers with that answer all the same, saying it was not stored ({@link
 *       FailedReplies#unstored}): the tokens are spent, so the answer is not thrown away; marks the
 *       owner's activity {@link Activity#ERROR} and releases the lease (a release that fails
 *       changes no answer: {@link LeaseGate#releaseAfter}); during shutdown, a turn interrupted is
 *       answered and logged as interrupted. Every failed answer (busy, error, lease lost,
 *       interrupted) is made by {@link FailedReplies}.
 *   <li>A turn whose lease passed to another holder while it ran (this process paused, or lost the
 *       database, for longer than {@code lease_ttl_seconds}) stores nothing: no reply in the log,
 *       no record, no transcript or memory; only the usage ledger is told, as a failed turn with
 *       outcome {@code lease_lost}, since its tokens were spent. It answers {@link
 *       FailedReplies#leaseLostText} when the lease was lost before the answer came; when the
 *       answer had come (the lease was found lost at the reply's commit or by the check after it),
 *       it gives that answer, saying it is not in the history ({@link
 *       FailedReplies#leaseLostAnswerText}). It leaves the session to the holder that took it over:
 *       the owner's activity here is {@link Activity#IDLE} (nothing of it fails; the status of
 *       every node shows the holder's turn as {@code working} while its lease lasts), not {@code
 *       error}.
 *   <li>Each turn's duration is measured from the lease to the reply (or the failure) on the
 *       monotonic nano timer. A turn that reached the back-end and failed is told to the turn
 *       listener as a {@link FailedTurn} with its cause and the tokens known of it.
 *   <li>The turn listener hears of each turn on a thread of its own, in completion order, off the
 *       turn's path, by the rules of the {@link TurnListenerQueue}; {@link #close} waits for it up
 *       to the shutdown grace.
 *   <li>The {@link TurnMeter} hears of every turn, whatever its ending, exactly once, on the turn's
 *       thread before its reply is returned.
 * </ul>
 */
final class TurnRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TurnRunner.class);

  private final MessageLog messageLog;
  private final LeaseGate leases;
  private final OwnerProfiles profiles;
  private final SessionLifecycle lifecycle;
  private final HistoryInjector injector;
  private final SessionSettings settings;
  private final Clock clock;
  private final String backendName;
  private final TurnListener turnListener;
  private final BooleanSupplier closing;
  private final SessionEvents sessionEvents;
  private volatile TurnMeter meter = TurnMeter.NONE;
  private final SessionCondenser condenser;
  private final FailedReplies replies;

  /** Tells the turn listener about turns, off the turns' path. */
  private final TurnListenerQueue listenerQueue;

  /**
   * @param backendName the default back-end's display name, for answers no back-end gave
   * @param closing true once the engine is shutting down
   */
  TurnRunner(
      MessageLog messageLog,
      LeaseGate leases,
      OwnerProfiles profiles,
      SessionLifecycle lifecycle,
      HistoryInjector injector,
      SessionSettings settings,
      Clock clock,
      String backendName,
      TurnListener turnListener,
      SessionEvents sessionEvents,
      SessionCondenser condenser,
      BooleanSupplier closing) {
    this.sessionEvents = sessionEvents;
    this.condenser = condenser;
    this.messageLog = messageLog;
    this.leases = leases;
    this.profiles = profiles;
    this.lifecycle = lifecycle;
    this.injector = injector;
    this.settings = settings;
    this.clock = clock;
    this.backendName = backendName;
    this.turnListener = turnListener;
    this.listenerQueue = new TurnListenerQueue(turnListener, TurnListenerQueue.DEFAULT_CAPACITY);
    this.closing = closing;
    this.replies = new FailedReplies(messageLog, profiles, backendName);
  }

  /**
   * Runs {@code slot}'s turn for {@code request} when its place comes; never throws.
   *
   * @param leased true when the owner's lease was taken with the request
   * @param again true when the request was logged before (its {@link RequestKey} sent again): an
   *     answer of the owner's to it in the log is the reply, and no turn runs
   */
  Reply run(
      OwnerSlot slot,
      TurnQueue.Place place,
      Message request,
      DispatchListener listener,
      boolean leased,
      boolean again) {
    return slot.queue.run(
        place,
        settings.lockWait(),
        () -> {
          long start = System.nanoTime();
          Ran ran;
          try {
            ran = turn(slot, request, listener, place, leased, again);
          } catch (RuntimeException e) {
            log.error("dispatch to {} failed", slot.name(), e);
            ran = new Ran(replies.failure(slot, e), TurnEnding.FAILED, null);
          }
          if (ran.ending() != null) {
            measure(slot.owner, ran, Duration.ofNanos(System.nanoTime() - start));
          }
          return ran.reply();
        },
        () -> {
          // Still behind an earlier turn after lock_wait: answered busy now, not after that turn.
          releaseIf(leased, slot.name());
          Ran ran = tooLong(slot, request, Duration.ofNanos(place.waitedNanos()));
          measure(slot.owner, ran, Duration.ZERO);
          return ran.reply();
        });
  }

  private Ran tooLong(OwnerSlot slot, Message request, Duration waited) {
    return new Ran(
        replies.busy(slot, request, "it was busy for " + waited.toSeconds() + " s"),
        TurnEnding.BUSY,
        null);
  }

  /** From now on {@code turnMeter} hears how each turn ended. */
  void setTurnMeter(TurnMeter turnMeter) {
    this.meter = Objects.requireNonNull(turnMeter, "turnMeter");
  }

  /**
   * A turn's reply, how it ended (null: no turn ran, the answer was in the log) and, when it
   * completed, what the turn listener hears of it.
   */
  private record Ran(Reply reply, TurnEnding ending, CompletedTurn completed) {}

  private void measure(Owner owner, Ran ran, Duration took) {
    TurnMeter m = meter;
    if (m == TurnMeter.NONE) {
      return;
    }
    try {
      m.turnEnded(new EndedTurn(owner, ran.ending(), took, ran.completed()));
    } catch (RuntimeException e) {
      log.warn("{}: the turn meter failed (the turn itself is unchanged)", owner.name(), e);
    }
  }

  /** The answer of a turn of {@code slot}'s owner that failed. */
  Reply failure(OwnerSlot slot) {
    return replies.failure(slot);
  }

  /** The answer for {@code slot}'s owner when the wait for its turn was interrupted. */
  Reply waitInterrupted(OwnerSlot slot) {
    return replies.waitInterrupted(slot);
  }

  private Ran turn(
      OwnerSlot slot,
      Message request,
      DispatchListener listener,
      TurnQueue.Place place,
      boolean preLeased,
      boolean again) {
    String owner = slot.name();
    String description = "";
    if (closing.getAsBoolean() && Thread.currentThread().isInterrupted()) {
      releaseIf(preLeased, owner);
      return new Ran(replies.interrupted(slot, request, description), TurnEnding.INTERRUPTED, null);
    }
    Duration waited = Duration.ofNanos(place.waitedNanos());
    if (waited.compareTo(settings.lockWait()) > 0) {
      releaseIf(preLeased, owner);
      return tooLong(slot, request, waited);
    }
    if (!preLeased && !leases.acquire(owner, settings.lockWait().minus(waited))) {
      return new Ran(
          replies.busy(slot, request, "another Legio process holds its session"),
          TurnEnding.BUSY,
          null);
    }
    if (again) {
      Optional<Reply> answered = answerInTheLog(slot, request);
      if (answered.isPresent()) {
        leases.releaseAfter(owner, null);
        return new Ran(answered.get(), null, null);
      }
    }
    boolean leased = true;
    long started = System.nanoTime();
    OwnerProfile profile = null;
    TurnResult result = null;
    String answer = null;
    boolean sent = false;
    RuntimeException failure = null;
    try {
      profile = profiles.resolve(slot.owner);
      description = profile.description();
      Instant now = clock.instant();
      boolean fresh = lifecycle.begin(slot, profile, now).fresh();
      sessionEvents.activity(slot, Activity.WORKING);
      SessionCondenser.Brief brief =
          fresh ? SessionCondenser.Brief.NONE : condenser.condenseIfDue(slot, profile);
      String message =
          brief.seed(injector.compose(profile, fresh, slot.record.lastInjectedSequence(), request));
      TurnEvents events = new TurnEvents(owner, sessionEvents.alsoTelling(listener));
      sent = true;
      TurnStart turnStart = TurnStart.now();
      try {
        result = slot.live.send(message, events, turnStart);
      } catch (SessionLostException e) {
        // The back-end lost the conversation: start a new one, bootstrapped from the log; the
        // turn's time-out still counts from its first send.
        log.warn("{}: {}", owner, e.getMessage());
        lifecycle.replaceLost(slot, profile, now);
        fresh = true;
        message = injector.compose(profile, true, 0, request);
        result = slot.live.send(message, events, turnStart);
      }
      answer =
          StorableReply.of(
              result.text().isBlank() ? "(no answer)" : result.text(), messageLog.maxTextBytes());
      Instant done = clock.instant();
      // The duration ends where `done` is taken, so that a turn's [done - duration, done] is the
      // time it held the session before its reply (the reply's commit comes after both).
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      String kind = profile.shape().backend().kind();
      slot.record =
          slot.record
              .afterTurn(
                  result.usage().inputTokens(),
                  result.usage().outputTokens(),
                  request.sequence(),
                  done,
                  done.plus(settings.ttlFor(kind)))
              // A back-end that cannot tell leaves the figures of the last turn that could.
              .withContext(result.context());
      if (!Objects.equals(slot.live.backendSessionId(), slot.record.backendSessionId())) {
        // The back-end moved to a new conversation (an HTTP back-end summarised the old one).
        slot.record = slot.record.withBackendSessionId(slot.live.backendSessionId());
      }
      Message reply =
          leases.finishTurn(
              messageLog,
              NewMessage.of(slot.owner.speaker(), slot.owner.replyAudience(), answer)
                  .replyingTo(request.id()),
              slot.record);
      leased = false;
      sessionEvents.activity(slot, Activity.IDLE);
      CompletedTurn completed =
          CompletedTurn.builder(owner, slot.record.sessionId())
              .fresh(fresh)
              .sent(message)
              .reply(answer)
              .model(profile.shape().model())
              .usage(result.usage())
              .at(done)
              .backendKind(kind)
              .toolCalls(events.toolCalls)
              .compactions(events.compactions)
              .context(result.context())
              .duration(took)
              .sessionCreated(slot.record.createdAt())
              .build();
      notifyTurn(completed);
      return new Ran(
          new Reply(
              owner,
              description,
              profile.shape().backend().displayName(),
              answer,
              false,
              reply.id(),
              reply.sequence()),
          TurnEnding.COMPLETED,
          completed);
    } catch (RuntimeException e) {
      failure = e;
      if (!(e instanceof LeaseLostException) && !(leased && !leases.stillHeldAfter(owner, e))) {
        return failed(slot, request, profile, description, answer, result, sent, started, e);
      }
      // The lease passed to another holder while the turn ran: whatever failed first (the stored
      // conversation another process continued, say), that is what the caller is told.
      leased = false; // another holder has it now: nothing to release
      sessionEvents.activity(slot, Activity.IDLE);
      log.warn(
          "{}: request {}: the lease was lost{}: {}",
          owner,
          request.id(),
          answer == null ? "" : " after the answer came (given, not stored)",
          e.getMessage());
      if (slot.record != null) {
        tellFailed(slot, profile, result, started, FailedTurn.Cause.LEASE_LOST);
      }
      if (answer != null) {
        // The answer came before the lease was found lost: its tokens are spent, so it is given.
        return new Ran(replies.leaseLost(owner, description, answer), TurnEnding.FAILED, null);
      }
      return new Ran(replies.leaseLost(owner, description), TurnEnding.FAILED, null);
    } finally {
      if (leased) {
        leases.releaseAfter(owner, failure); // never replaces the turn's own answer
      }
    }
  }

  /**
   * The owner's answer to {@code request} in the log, if a turn gave one before: read once the
   * owner's lease is held, so that a turn of another process is over or not begun.
   */
  private Optional<Reply> answerInTheLog(OwnerSlot slot, Message request) {
    UUID note = InterruptionNote.id(request.id(), slot.name());
    for (Message m : messageLog.thread(request.id()).replies()) {
      if (request.id().equals(m.replyTo())
          && m.sender().equals(slot.owner.speaker())
          && !m.id().equals(note)) {
        Optional<OwnerProfile> profile = replies.profileIfKnown(slot, "the answer in the log");
        String description = profile.map(OwnerProfile::description).orElse("");
        String backend = profile.map(p -> p.shape().backend().displayName()).orElse(backendName);
        log.info("{}: request {} sent again; answered from the log", slot.name(), request.id());
        return Optional.of(
            new Reply(slot.name(), description, backend, m.text(), false, m.id(), m.sequence()));
      }
    }
    return Optional.empty();
  }

  /** Tells the turn listeners that the turn of {@code slot}'s session failed for {@code cause}. */
  private void tellFailed(
      OwnerSlot slot,
      OwnerProfile profile,
      TurnResult result,
      long started,
      FailedTurn.Cause cause) {
    notifyFailed(
        FailedTurn.builder(slot.name(), slot.record.sessionId())
            .model(profile.shape().model())
            .backendKind(profile.shape().backend().kind())
            .usage(result == null ? null : result.usage())
            .at(clock.instant())
            .duration(Duration.ofNanos(System.nanoTime() - started))
            .cause(cause)
            .build());
  }

  /**
   * A turn that failed for another reason than a lost lease: told to the listeners, answered.
   *
   * @param answer the model's answer when the turn had one before it failed (its storing failed),
   *     else null
   */
  private Ran failed(
      OwnerSlot slot,
      Message request,
      OwnerProfile profile,
      String description,
      String answer,
      TurnResult result,
      boolean sent,
      long started,
      RuntimeException e) {
    String owner = slot.name();
    sessionEvents.activity(slot, Activity.ERROR);
    if (sent && slot.record != null) {
      tellFailed(slot, profile, result, started, FailedTurn.Cause.of(e));
    }
    if (closing.getAsBoolean()) {
      log.warn("{}: turn interrupted by shutdown", owner, e);
      return new Ran(replies.interrupted(slot, request, description), TurnEnding.INTERRUPTED, null);
    }
    log.error("{}: the turn for request {} failed", owner, request.id(), e);
    if (answer != null && FailedReplies.storeFailed(e)) {
      return new Ran(replies.unstored(owner, description, answer), TurnEnding.FAILED, null);
    }
    return new Ran(replies.error(owner, description, e), TurnEnding.FAILED, null);
  }

  /**
   * Passes a turn's events on to the dispatch listener, and keeps what the turn listener is told
   * about them: the tool calls and the compactions.
   */
  private static final class TurnEvents implements Consumer<BackendEvent> {
    private final String owner;
    private final DispatchListener listener;
    int toolCalls;
    final List<BackendEvent.CompactionEnded> compactions = new ArrayList<>(0);

    TurnEvents(String owner, DispatchListener listener) {
      this.owner = owner;
      this.listener = listener;
    }

    @Override
    public void accept(BackendEvent event) {
      if (event instanceof BackendEvent.ToolCall) {
        toolCalls++;
      } else if (event instanceof BackendEvent.CompactionEnded ended) {
        compactions.add(ended);
      }
      listener.onEvent(owner, event);
    }
  }

  private void notifyTurn(CompletedTurn turn) {
    if (turnListener != TurnListener.NONE) {
      listenerQueue.completed(turn);
    }
  }

  private void notifyFailed(FailedTurn turn) {
    if (turnListener != TurnListener.NONE) {
      listenerQueue.failed(turn);
    }
  }

  private void releaseIf(boolean leased, String owner) {
    if (leased) {
      leases.releaseAfter(owner, null);
    }
  }

  /**
   * Waits up to {@code max} until the turn listener has heard of every turn that ended before this
   * call (its transcript is written); true if it has.
   */
  boolean awaitTurnsTold(Duration max) {
    return turnListener == TurnListener.NONE || listenerQueue.awaitTold(max);
  }

  /**
   * Stops telling the turn listener, waiting up to the shutdown grace for what it has not heard.
   */
  @Override
  public void close() {
    listenerQueue.close(settings.shutdownGrace());
  }
}
