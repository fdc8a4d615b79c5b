package dev.legio.session;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.ModelBackend;
import dev.legio.config.SessionSettings;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.Names;
import dev.legio.log.NewMessage;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the user's messages to agents and their sessions: the front of Legio's session engine,
 * built with {@link #builder()}. The rules of the sessions themselves live in named parts of this
 * package: {@link RebuildPolicy} (when a session is rebuilt), {@link HistoryInjector} (what a turn
 * carries), {@link LeaseGate} (sessions shared between processes), {@link IdleReaper}, {@link
 * ChannelPool} (channel sessions, least recently used first), {@link TurnRunner} (one turn), {@link
 * SessionLifecycle} (open, resume, rebuild, close), {@link RequestPosting} (a request logged and
 * queued in one step), {@link OwnerProfiles} and {@link StatusBoard}.
 *
 * <p>Rules (each is pinned by a test in {@code SessionEngineContract}):
 *
 * <ul>
 *   <li>Routing: a message from caesar goes to the agents it {@code @mentions}, in parallel, else
 *       to the legatus. It is logged once, addressed to them; each answer is logged from its agent,
 *       addressed to caesar, replying to the request. A mention of an unknown agent refuses the
 *       whole message, listing the known agents, and logs nothing.
 *   <li>One agent works on one request at a time, in the order the requests were logged. Between
 *       processes sharing a store the same holds through the {@link LeaseGate}; a request that
 *       cannot get the session within {@link SessionSettings#lockWait()} gets a "busy" answer.
 *       Requests to different agents are logged and queued without waiting for each other (their
 *       appends may share one commit); only requests that share an agent take turns.
 *   <li>A request to an owner nothing in this process runs or waits for takes the owner's lease in
 *       the transaction that logs it; otherwise its turn takes the lease when its place comes.
 *   <li>A message on an external channel ({@code telegram:123}) goes to the channel's own session;
 *       the {@link ChannelPool} holds at most {@code max_sessions} of them, closing the least
 *       recently active beyond that.
 *   <li>A failure in one agent's turn answers {@code [name] An error occurred during processing.}
 *       (the cause goes to the log file) and affects no other agent.
 *   <li>A request sent with a {@link RequestKey} is logged once and answered once per agent,
 *       however often it is sent (see {@link RequestIntake}, and {@link TurnRunner} for the answer
 *       found in the log).
 * </ul>
 */
public final class SessionEngine implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionEngine.class);

  private final MessageLog messageLog;
  private final SessionStore store;
  private final AgentDirectory agents;
  private final ModelBackend backend;
  private final SessionSettings settings;
  private final Clock clock;
  private final LeaseGate leases;
  private final RequestPosting posting;
  private final SessionEditGate edits;
  private final SessionResets resets;
  private final SessionEvents sessionEvents = new SessionEvents();
  private final RebuildCounter rebuilds = new RebuildCounter(sessionEvents);
  private final SessionLifecycle lifecycle;
  private final TurnRunner turns;
  private final IdleReaper reaper;
  private final StatusBoard board;

  private final OwnerProfiles profiles;
  private final OwnerSlots slots;
  private final SessionResumer resumer;

  /** Runs the turns of a message to several agents, one virtual thread each. */
  private final ParallelTurns parallelTurns;

  /** Whether messages are taken, and the stop ({@link EngineShutdown}). */
  private final EngineShutdown shutdown;

  /** Called by {@link SessionEngineBuilder#build()}, which checks what is required. */
  SessionEngine(SessionEngineBuilder b) {
    this.messageLog = b.messageLog();
    this.store = b.store();
    this.agents = b.agents();
    this.backend = b.backend();
    this.settings = b.settings();
    this.clock = b.clock();
    String holder = "legio-" + UUID.randomUUID();
    this.leases =
        new LeaseGate(
            store, holder, settings.leaseDuration(), clock, b.leaseWaitTime(), b.leaseSleeper());
    // Condensing replaces the token limit only where it can happen: with a brief writer.
    long condenseAfterTokens =
        b.briefWriter() == BriefWriter.NONE ? 0 : settings.condenseAfterTokens();
    this.lifecycle =
        new SessionLifecycle(
            store, settings, b.memory(), rebuilds, condenseAfterTokens, b.unfinishedEdits());
    this.slots =
        new OwnerSlots(
            settings.channels().maxSessions(), this::knownAgents, this::closeEvictedChannel);
    this.shutdown = new EngineShutdown(slots, lifecycle, settings.shutdownGrace());
    this.posting = new RequestPosting(slots, new RequestIntake(messageLog, leases), shutdown);
    this.board =
        new StatusBoard(
            agents, store, leases, clock, slots::held, settings.channels().idleTimeout());
    SessionEditGate edits =
        new SessionEditGate(
            slots::editPlace,
            () ->
                new LeaseGate(
                    store,
                    holder + "/edit-" + UUID.randomUUID(),
                    settings.leaseDuration(),
                    clock,
                    b.leaseWaitTime(),
                    b.leaseSleeper()),
            settings.lockWait(),
            this::awaitTurnsTold);
    this.edits = edits;
    this.resets = new SessionResets(this::knownAgents, slots, edits, lifecycle, store);
    this.profiles = new OwnerProfiles(agents, settings, backend, b.backendsByKind());
    this.turns =
        new TurnRunner(
            messageLog,
            leases,
            profiles,
            lifecycle,
            new HistoryInjector(
                messageLog::visibleTo,
                board::centurioStatusXml,
                LegatusDigest.of(messageLog::visibleTo, b.legatus())),
            settings,
            clock,
            backend.displayName(),
            b.turnListener(),
            sessionEvents,
            new SessionCondenser(
                store, lifecycle, b.briefWriter(), condenseAfterTokens, sessionEvents),
            () -> this.shutdown.closing());
    this.parallelTurns = new ParallelTurns(turns);
    this.reaper =
        new IdleReaper(
            clock,
            slot -> {
              if (settings.resumeAfterIdle() && !slot.owner.isChannel()) {
                // [sessions] resume_after_idle: stop the process, keep the conversation.
                lifecycle.closeLive(slot);
                return true;
              }
              return lifecycle.close(slot, RebuildReason.IDLE);
            });
    this.resumer =
        new SessionResumer(
            store,
            profiles,
            lifecycle,
            messageLog,
            clock,
            who -> who.isChannel() ? slots.channel(who) : slots.agent(who.name()));
  }

  /** A builder; the message log, the session store, the agents and the back-end are required. */
  public static SessionEngineBuilder builder() {
    return new SessionEngineBuilder();
  }

  /** The attribution header shown above a reply: {@link Reply#header()}. */
  public static String header(Reply reply) {
    return reply.header();
  }

  public ModelBackend backend() {
    return backend;
  }

  // ------------------------------------------------------------------ routing

  /**
   * Handles one message from caesar: routes it, logs it, dispatches it and waits for every answer.
   */
  public Outcome handle(String text, DispatchListener listener) {
    return handle(text, listener, null);
  }

  /**
   * As {@link #handle(String, DispatchListener)}, once per {@code key} (null: none) by {@link
   * RequestKey}'s rules.
   *
   * @throws RequestKeyReusedException when the key came with another message before
   */
  public Outcome handle(String text, DispatchListener listener, RequestKey key) {
    return switch (Recipients.ofCaesarsMessage(text, knownAgents())) {
      case Recipients.Refused r -> Outcome.refused(r.why());
      case Recipients.To to -> dispatch(Names.CAESAR, to.targets(), text, listener, key);
    };
  }

  /**
   * Dispatches a message from {@code sender} to the named centuriones, as {@link #handle} does
   * after routing (the legatus's {@code dispatch} tool); see {@link Recipients#ofDispatch}.
   */
  public Outcome dispatchFrom(
      String sender, List<String> centuriones, String text, DispatchListener listener) {
    Names.require(sender, "sender");
    return switch (Recipients.ofDispatch(centuriones, text, agents.centurioNames())) {
      case Recipients.Refused r -> Outcome.refused(r.why());
      case Recipients.To to -> dispatch(sender, to.targets(), text, listener, null);
    };
  }

  private Outcome dispatch(
      String sender, List<String> targets, String text, DispatchListener listener, RequestKey key) {
    agents.requireUsable(targets); // a broken prompt.md refuses the message before it is logged
    NewMessage message = NewMessage.of(sender, Audience.of(targets), text);
    if (key != null) {
      message = message.withId(key.messageId(sender));
    }
    RequestPosting.Posted posted = posting.toAgents(message, targets);
    RequestIntake.Logged logged = posted.logged();
    Message request = logged.message();
    tellLogged(listener, request);
    if (targets.size() == 1) {
      // One agent: its turn runs on this thread (it waits here if the agent is busy).
      return new Outcome(
          request,
          List.of(
              turns.run(
                  posted.slots().get(0),
                  posted.places().get(0),
                  request,
                  listener,
                  logged.leased(),
                  logged.again())),
          null);
    }
    return new Outcome(
        request,
        parallelTurns.run(posted.slots(), posted.places(), request, listener, logged.again()),
        null);
  }

  /**
   * Handles one message arriving on an external channel ({@code telegram:123}): the channel has a
   * session of its own with the legatus's prompt, in the role its source maps to.
   */
  public Outcome handleChannel(String channelKey, String text, DispatchListener listener) {
    return handleChannel(channelKey, text, listener, null);
  }

  /**
   * As {@link #handleChannel(String, String, DispatchListener)}, once per {@code key} (null: none)
   * by {@link RequestKey}'s rules.
   *
   * @throws RequestKeyReusedException when the key came with another message before
   */
  public Outcome handleChannel(
      String channelKey, String text, DispatchListener listener, RequestKey key) {
    Names.require(channelKey, "channel");
    Owner channel = Owner.channel(channelKey);
    if (text == null || text.isBlank()) {
      return Outcome.refused("Nothing to send: the message is empty.");
    }
    NewMessage message = NewMessage.of(channelKey, Audience.of(channelKey), text);
    if (key != null) {
      message = message.withId(key.messageId(channelKey));
    }
    RequestPosting.Posted posted = posting.toChannel(message, channel);
    RequestIntake.Logged logged = posted.logged();
    tellLogged(listener, logged.message());
    return new Outcome(
        logged.message(),
        List.of(
            turns.run(
                posted.slots().get(0),
                posted.places().get(0),
                logged.message(),
                listener,
                logged.leased(),
                logged.again())),
        null);
  }

  /** {@link DispatchListener#requestLogged}: a listener's failure must not leave turns queued. */
  private static void tellLogged(DispatchListener listener, Message request) {
    try {
      listener.requestLogged(request);
    } catch (RuntimeException e) {
      log.warn("a dispatch listener failed on request {} (its turns run)", request.id(), e);
    }
  }

  /** The legatus and every centurio folder, sorted (a view that cannot be changed). */
  public Set<String> knownAgents() {
    return agents.agentNames();
  }

  /** A channel pushed out of the pool: its session is closed after its turns. */
  private void closeEvictedChannel(OwnerSlot gone) {
    log.info(
        "channel sessions at their maximum; closing the least recently active {}", gone.name());
    TurnQueue.Place place = gone.queue.enqueue();
    parallelTurns.submit(
        () ->
            gone.queue.run(
                place, () -> lifecycle.close(gone, "evicted (channel session limit)", null)));
  }

  /** Waits up to {@code max} until the turn listener heard of every turn that ended before. */
  private boolean awaitTurnsTold(Duration max) {
    return turns.awaitTurnsTold(max);
  }

  // ------------------------------------------------------------------ commands

  /**
   * Resets an agent's (or channel's) session by {@link SessionResets}' rules: the next request
   * starts a fresh one. Returns false when the owner had no active session.
   *
   * @throws SessionBusyException when a turn still ran after {@code lock_wait}; nothing changed
   */
  public boolean reset(String name) {
    return resets.reset(name);
  }

  /**
   * Whose sessions {@link #resetAll()} resets: every agent, then every agent removed from the
   * castra whose session row is left ({@link SessionResets}); no channel.
   */
  public Set<String> resetAllOwners() {
    return resets.agentsAndLeftOverRows();
  }

  /** Resets every agent's session, going past those busy with a turn ({@link SessionResets}). */
  public SessionResets.Done resetAll() {
    return resets.resetAll(Set.of());
  }

  /** Resets every agent's session but those of {@code except}'s agents, as {@link #resetAll}. */
  public SessionResets.Done resetAll(Set<String> except) {
    return resets.resetAll(except);
  }

  /**
   * Where edits of a session (rewind, fork) wait until no turn of its owner runs ({@link
   * SessionEditGate}); {@link #reset} waits there too.
   */
  public SessionEditGate edits() {
    return edits;
  }

  /**
   * Continues the session {@code id} ({@code legio chat --resume ID}); the rules are {@link
   * SessionResumer}'s. Waits for a turn in progress.
   *
   * @param owner whose session a conversation without a record becomes (an agent name)
   * @throws IllegalArgumentException when the owner's back-end cannot resume conversations
   */
  public Resumed resume(String id, String owner) {
    return resumer.resume(id, owner);
  }

  /**
   * The shape of {@code owner}'s sessions (its back-end, prompt and their hashes), as its next turn
   * would open one; for {@code SessionHistoryEditor.withShapes} (in transcript).
   */
  public SessionShape shapeOf(String owner) {
    return profiles.resolve(Owner.of(owner)).shape();
  }

  /**
   * A session made active again by {@link #resume}.
   *
   * @param owner whose session it is
   * @param sessionId its session id (transcripts are named by it)
   * @param backendSessionId the back-end's conversation it continues
   * @param known true when Legio had the session's record; false for a conversation it adopted
   */
  public record Resumed(String owner, UUID sessionId, String backendSessionId, boolean known) {}

  /**
   * Closes the agent sessions this process holds that were idle longer than their timeout (see
   * {@link IdleReaper}); the maintenance calls it every {@link SessionSettings#reaperInterval()}.
   * Returns how many were closed.
   */
  public int reapIdle() {
    return reaper.reap(slots.agents(), settings.idleTimeout());
  }

  /**
   * Closes channel sessions idle longer than the channel timeout (run every {@link
   * SessionSettings.Channels#cleanupInterval()}). Returns how many were closed.
   */
  public int cleanupChannels() {
    return reaper.reap(slots.channels(), settings.channels().idleTimeout());
  }

  /**
   * Tells {@code listener} what every session does from now on (activity, rebuilds, back-end
   * events); replaces the one registered before. {@link SessionEventListener#NONE}: nobody.
   */
  public void setSessionEventListener(SessionEventListener listener) {
    sessionEvents.register(listener);
  }

  /**
   * Tells {@code meter} how every turn ends from now on ({@link TurnMeter}); replaces the one
   * registered before. {@link TurnMeter#NONE}: nobody.
   */
  public void setTurnMeter(TurnMeter meter) {
    turns.setTurnMeter(meter);
  }

  /**
   * How many sessions this process has open now: agents' and channels' whose back-end session is
   * live here (sessions other processes hold, and closed records, are not counted). Reads no store.
   */
  public int openSessions() {
    int open = 0;
    for (OwnerSlot slot : slots.agents()) {
      open += slot.live == null ? 0 : 1;
    }
    for (OwnerSlot slot : slots.channels()) {
      open += slot.live == null ? 0 : 1;
    }
    return open;
  }

  /** {@code owner}'s rebuilds by reason since this process started; only reasons that happened. */
  public Map<RebuildReason, Long> rebuildCountsOf(String owner) {
    return rebuilds.snapshotOf(owner);
  }

  /** How many rebuilds this process made, per reason. */
  public Map<RebuildReason, Long> rebuildCounts() {
    return rebuilds.snapshot();
  }

  /**
   * Every agent (legatus first) and every channel with a readable record, with its session (a
   * damaged row is left out: {@link #status(ChannelListing)} names it).
   */
  public List<SessionStatus> status() {
    return board.status();
  }

  /**
   * Every agent, and the channels {@code listing} picks with their counts; and the session rows
   * that could not be read as a record (damaged), which hide no one ({@link StatusBoard}).
   */
  public StatusReport status(ChannelListing listing) {
    return board.status(listing);
  }

  // ------------------------------------------------------------------ shutdown

  /** True when no turn runs or waits, for any owner (a server's drain waits for this). */
  public boolean idle() {
    return shutdown.idle();
  }

  /**
   * Stops taking messages and interrupts every turn running or waiting: each caller is answered
   * that Legio shut down. A server calls it when its drain's grace has ended, before it closes its
   * connections (see {@link EngineShutdown}).
   */
  public void interruptTurns() {
    shutdown.interruptTurns();
  }

  /**
   * Stops taking messages, lets dispatches in flight finish (up to {@link
   * SessionSettings#shutdownGrace()}; the rest are interrupted and recorded as such), then closes
   * the agents' sessions, the legatus's, and the channels'. Waits (up to the grace) for the turn
   * listener to hear of every completed turn. The caller closes the stores after.
   */
  @Override
  public void close() {
    shutdown.close(
        () -> {
          parallelTurns.shutdown();
          turns.close();
        });
  }
}
