package dev.legio.session;

import com.fasterxml.uuid.Generators;
import dev.legio.agents.AgentDirectory;
import dev.legio.agents.AgentProfile;
import dev.legio.agents.Roster;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ContextUse;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionLostException;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TurnResult;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.Names;
import dev.legio.log.NewMessage;
import dev.legio.log.PraetoriumXml;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the user's messages to agents and runs every agent's conversation session: the heart of
 * Legio.
 *
 * <p>Rules (each is pinned by a test in {@code SessionEngineTest}):
 *
 * <ul>
 *   <li>Routing: a message from caesar goes to the agents it {@code @mentions}, in parallel, else
 *       to the legatus. It is logged once, addressed to them; each answer is logged from its agent,
 *       addressed to caesar, replying to the request. A mention of an unknown agent refuses the
 *       whole message, listing the known agents, and logs nothing.
 *   <li>One agent works on one request at a time, in the order the requests were logged. Between
 *       processes sharing a store the same holds through a lease in the {@link SessionStore}; a
 *       request that cannot get the session within {@link SessionSettings#lockWait()} gets a "busy"
 *       answer.
 *   <li>A session is rebuilt (old back-end session closed, a new one opened) when its prompt file
 *       changed, when its cumulative input tokens passed the limit, when it was idle too long, on
 *       reset, for the legatus when the roster changed, and after a restart when the back-end
 *       cannot resume. Each rebuild is logged and counted with its {@link RebuildReason}.
 *   <li>Long-term memory: the system prompt of an agent's new session (not a channel's) ends with
 *       what its {@link MemoryPrompt} gives, read when the session opens. It is not part of the
 *       prompt hash: a change of memory never rebuilds a live session.
 *   <li>Context: a fresh session's first request carries the newest {@code history_window} messages
 *       its owner may see (for the legatus: the whole log) as {@code <praetorium>} XML, followed by
 *       the context notice. Later requests to an agent or channel carry exactly the messages it may
 *       see that were logged after the last one it received and before the request, by sequence
 *       number: none twice, none skipped. Later requests to the legatus carry only the agents'
 *       status; its live session holds the rest.
 *   <li>A failure in one agent's turn answers {@code [name] An error occurred during processing.}
 *       (the cause goes to the log file) and affects no other agent.
 * </ul>
 */
public final class SessionEngine implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionEngine.class);
  private static final String RULE = "━━━━━━━━━━━━";

  private final MessageLog messageLog;
  private final SessionStore store;
  private final AgentDirectory agents;
  private final ModelBackend backend;
  private final SessionSettings settings;
  private final Clock clock;
  private final TurnListener turnListener;
  private final Function<String, ModelBackend> backendsByKind;
  private final MemoryPrompt memory;
  private final String holder = "legio-" + UUID.randomUUID();
  private final Object postLock = new Object();
  private final Map<String, Slot> agentSlots = new ConcurrentHashMap<>();
  private final LinkedHashMap<String, Slot> channelSlots = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<RebuildReason, AtomicLong> rebuildCounts = new EnumMap<>(RebuildReason.class);

  /** Tells the turn listener about completed turns, off the turns' path. */
  private final ExecutorService listenerThread =
      Executors.newSingleThreadExecutor(Thread.ofVirtual().name("legio-turn-listener").factory());

  /** Runs the turns of a message to several agents, one virtual thread each. */
  private final ExecutorService parallelTurns = Executors.newVirtualThreadPerTaskExecutor();

  private volatile boolean closing;

  public SessionEngine(
      MessageLog messageLog,
      SessionStore store,
      AgentDirectory agents,
      ModelBackend backend,
      SessionSettings settings,
      Clock clock) {
    this(messageLog, store, agents, backend, settings, clock, TurnListener.NONE);
  }

  /**
   * An engine that tells {@code turnListener} about every completed turn: on a thread of its own,
   * off the turn's path, one turn at a time in the order the turns completed; {@link #close} waits
   * for the turns it has not heard of yet.
   */
  public SessionEngine(
      MessageLog messageLog,
      SessionStore store,
      AgentDirectory agents,
      ModelBackend backend,
      SessionSettings settings,
      Clock clock,
      TurnListener turnListener) {
    this(messageLog, store, agents, backend, settings, clock, turnListener, null);
  }

  /**
   * An engine whose agents may name their own back-end kind in their prompt's front matter ({@code
   * backend: ollama}); {@code backendsByKind} gives the back-end of each such kind (null: only
   * {@code backend} is available, and an agent naming another kind fails its turns).
   */
  public SessionEngine(
      MessageLog messageLog,
      SessionStore store,
      AgentDirectory agents,
      ModelBackend backend,
      SessionSettings settings,
      Clock clock,
      TurnListener turnListener,
      Function<String, ModelBackend> backendsByKind) {
    this(
        messageLog,
        store,
        agents,
        backend,
        settings,
        clock,
        turnListener,
        backendsByKind,
        MemoryPrompt.NONE);
  }

  /**
   * An engine whose agents' new sessions carry their long-term memory in the system prompt, as
   * {@code memory} gives it (channels' sessions carry none).
   */
  public SessionEngine(
      MessageLog messageLog,
      SessionStore store,
      AgentDirectory agents,
      ModelBackend backend,
      SessionSettings settings,
      Clock clock,
      TurnListener turnListener,
      Function<String, ModelBackend> backendsByKind,
      MemoryPrompt memory) {
    this.memory = Objects.requireNonNull(memory, "memory");
    this.backendsByKind = backendsByKind;
    this.turnListener = turnListener;
    this.messageLog = messageLog;
    this.store = store;
    this.agents = agents;
    this.backend = backend;
    this.settings = settings;
    this.clock = clock;
    for (RebuildReason reason : RebuildReason.values()) {
      rebuildCounts.put(reason, new AtomicLong());
    }
  }

  /** The attribution header shown above a reply: {@code ⚔️ vorenus — description} and a rule. */
  public static String header(Reply reply) {
    StringBuilder out = new StringBuilder("⚔️ ").append(reply.agent());
    if (!reply.description().isEmpty()) {
      out.append(" — ").append(reply.description());
    }
    if (reply.backendName() != null && reply.backendName().startsWith("offline")) {
      out.append(" [").append(reply.backendName()).append(']');
    }
    return out.append('\n').append(RULE).toString();
  }

  public ModelBackend backend() {
    return backend;
  }

  // ------------------------------------------------------------------ routing

  /**
   * Handles one message from caesar: routes it, logs it, dispatches it and waits for every answer.
   */
  public Outcome handle(String text, DispatchListener listener) {
    if (text == null || text.isBlank()) {
      return Outcome.refused("Nothing to send: the message is empty.");
    }
    Set<String> known = knownAgents();
    Mentions.Routing routing = Mentions.parse(text, known);
    if (!routing.unknown().isEmpty()) {
      return Outcome.refused(
          "Unknown agent "
              + String.join(", ", routing.unknown().stream().map(n -> "@" + n).toList())
              + ". Known agents: "
              + String.join(", ", known.stream().map(n -> "@" + n).toList())
              + ".");
    }
    List<String> targets = routing.targets().isEmpty() ? List.of(Names.LEGATUS) : routing.targets();
    return dispatch(Names.CAESAR, targets, text, listener);
  }

  /**
   * Dispatches a message from {@code sender} to the named centuriones, as {@link #handle} does
   * after routing (the legatus's {@code dispatch} tool). {@code text} is sent as it is: its
   * {@code @mentions} are not parsed. Refuses an unknown agent, the legatus (whose own turn would
   * wait for itself) and an empty text.
   */
  public Outcome dispatchFrom(
      String sender, List<String> centuriones, String text, DispatchListener listener) {
    Names.require(sender, "sender");
    if (text == null || text.isBlank()) {
      return Outcome.refused("Nothing to send: the message is empty.");
    }
    Set<String> known = agents.centurioNames();
    for (String target : centuriones) {
      if (!known.contains(target)) {
        return Outcome.refused(
            "No centurio named '"
                + target
                + "'. Centuriones: "
                + String.join(", ", new TreeSet<>(known))
                + ".");
      }
    }
    if (centuriones.isEmpty()) {
      return Outcome.refused("No centurio named: say who the message is for.");
    }
    return dispatch(
        sender, List.copyOf(new java.util.LinkedHashSet<>(centuriones)), text, listener);
  }

  private Outcome dispatch(
      String sender, List<String> targets, String text, DispatchListener listener) {
    agents.requireUsable(targets); // a broken prompt.md refuses the message before it is logged
    List<Slot> slots = new ArrayList<>(targets.size());
    List<TurnQueue.Place> places = new ArrayList<>(targets.size());
    Message request;
    boolean leased = false;
    synchronized (postLock) {
      ensureOpen();
      NewMessage message = NewMessage.of(sender, Audience.of(targets), text);
      if (targets.size() == 1) {
        Slot slot = agentSlot(targets.get(0));
        LoggedRequest logged = logRequest(message, slot);
        request = logged.request();
        leased = logged.leased();
        slots.add(slot);
        places.add(slot.queue.enqueue());
      } else {
        request = messageLog.append(message);
        for (String target : targets) {
          Slot slot = agentSlot(target);
          slots.add(slot);
          places.add(slot.queue.enqueue());
        }
      }
    }
    if (targets.size() == 1) {
      // One agent: its turn runs on this thread (it waits here if the agent is busy).
      return new Outcome(
          request, List.of(runTurn(slots.get(0), places.get(0), request, listener, leased)), null);
    }
    List<Future<Reply>> pending = new ArrayList<>(targets.size());
    for (int i = 0; i < targets.size(); i++) {
      Slot slot = slots.get(i);
      TurnQueue.Place place = places.get(i);
      pending.add(parallelTurns.submit(() -> runTurn(slot, place, request, listener, false)));
    }
    List<Reply> replies = new ArrayList<>(targets.size());
    for (int i = 0; i < targets.size(); i++) {
      replies.add(await(pending.get(i), targets.get(i)));
    }
    return new Outcome(request, replies, null);
  }

  /**
   * Handles one message arriving on an external channel ({@code telegram:123}): the channel has a
   * session of its own with the legatus's prompt, in the role its source maps to.
   */
  public Outcome handleChannel(String channelKey, String text, DispatchListener listener) {
    Names.require(channelKey, "channel");
    int colon = channelKey.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException(
          "a channel key is source:id, e.g. telegram:123; got '" + channelKey + "'");
    }
    if (text == null || text.isBlank()) {
      return Outcome.refused("Nothing to send: the message is empty.");
    }
    LoggedRequest logged;
    Slot slot;
    TurnQueue.Place place;
    synchronized (postLock) {
      ensureOpen();
      slot = channelSlot(channelKey, channelKey.substring(0, colon));
      logged = logRequest(NewMessage.of(channelKey, Audience.of(channelKey), text), slot);
      place = slot.queue.enqueue();
    }
    return new Outcome(
        logged.request(),
        List.of(runTurn(slot, place, logged.request(), listener, logged.leased())),
        null);
  }

  private record LoggedRequest(Message request, boolean leased) {}

  /**
   * Logs a request for one owner. When nothing of this process runs or waits for that owner, the
   * owner's lease is taken in the same transaction (one commit instead of two); otherwise the turn
   * takes it when its place comes (a turn before it will release it). Called under {@link
   * #postLock}, so no other turn is queued in between.
   */
  private LoggedRequest logRequest(NewMessage message, Slot slot) {
    if (!slot.queue.idle()) {
      return new LoggedRequest(messageLog.append(message), false);
    }
    SessionStore.LeasedRequest logged =
        store.appendAndTryLease(
            messageLog, message, slot.owner, holder, clock.instant(), settings.leaseDuration());
    return new LoggedRequest(logged.message(), logged.leased());
  }

  /**
   * Runs {@code slot}'s turn for {@code request} when its place comes; never throws.
   *
   * @param leased true when the owner's lease was taken with the request
   */
  private Reply runTurn(
      Slot slot,
      TurnQueue.Place place,
      Message request,
      DispatchListener listener,
      boolean leased) {
    return slot.queue.run(
        place,
        () -> {
          try {
            return turn(slot, request, listener, place, leased);
          } catch (RuntimeException e) {
            log.error("dispatch to {} failed", slot.owner, e);
            return Reply.failure(slot.owner, "", backend.displayName(), errorText(slot.owner));
          }
        });
  }

  private Reply await(Future<Reply> future, String owner) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Reply.failure(owner, "", backend.displayName(), "[" + owner + "] Interrupted.");
    } catch (ExecutionException e) {
      log.error("dispatch to {} failed", owner, e.getCause());
      return Reply.failure(owner, "", backend.displayName(), errorText(owner));
    }
  }

  private static String errorText(String owner) {
    return "[" + owner + "] An error occurred during processing.";
  }

  /** The legatus and every centurio folder, sorted. */
  public Set<String> knownAgents() {
    Set<String> names = new TreeSet<>(agents.centurioNames());
    names.add(Names.LEGATUS);
    return names;
  }

  private void ensureOpen() {
    if (closing) {
      throw new IllegalStateException("Legio is shutting down; the message was not sent");
    }
  }

  // ------------------------------------------------------------------ slots

  private enum Kind {
    LEGATUS,
    CENTURIO,
    CHANNEL
  }

  /** What this process holds for one owner: its live back-end session and its turn queue. */
  private static final class Slot {
    final String owner;
    final Kind kind;
    final String source;
    final TurnQueue queue = new TurnQueue();
    BackendSession live;
    SessionRecord record;
    volatile String activity = "idle";

    Slot(String owner, Kind kind, String source) {
      this.owner = owner;
      this.kind = kind;
      this.source = source;
    }
  }

  private Slot agentSlot(String name) {
    Kind kind = Names.LEGATUS.equals(name) ? Kind.LEGATUS : Kind.CENTURIO;
    return agentSlots.computeIfAbsent(name, n -> new Slot(n, kind, null));
  }

  private Slot channelSlot(String key, String source) {
    Slot evicted = null;
    Slot slot;
    synchronized (channelSlots) {
      slot = channelSlots.get(key);
      if (slot == null) {
        slot = new Slot(key, Kind.CHANNEL, source);
        channelSlots.put(key, slot);
        if (channelSlots.size() > settings.channels().maxSessions()) {
          Iterator<Slot> eldest = channelSlots.values().iterator();
          evicted = eldest.next();
          eldest.remove();
        }
      }
    }
    if (evicted != null) {
      Slot gone = evicted;
      log.info(
          "channel sessions at their maximum; closing the least recently active {}", gone.owner);
      TurnQueue.Place place = gone.queue.enqueue();
      parallelTurns.submit(
          () ->
              gone.queue.run(
                  place, () -> closeSlot(gone, "evicted (channel session limit)", null)));
    }
    return slot;
  }

  // ------------------------------------------------------------------ one turn

  /** What a turn needs to know about its owner, resolved afresh for every turn. */
  private record Resolved(
      ModelBackend backend,
      String description,
      String systemPrompt,
      String model,
      String promptHash,
      String rosterHash,
      int historyWindow,
      long maxInputTokens,
      Duration idleTimeout,
      String role,
      List<AgentProfile> centuriones) {}

  /**
   * The back-end of {@code profile}'s sessions: its own kind when it names one, else the default.
   */
  private ModelBackend backendFor(AgentProfile profile) {
    String kind = profile.backend();
    if (kind == null || kind.equals(backend.kind())) {
      return backend;
    }
    if (backendsByKind == null) {
      throw new IllegalStateException(
          profile.file()
              + " names back-end '"
              + kind
              + "', but this engine has only '"
              + backend.kind()
              + "'");
    }
    return backendsByKind.apply(kind);
  }

  private Resolved resolve(Slot slot) {
    return switch (slot.kind) {
      case CENTURIO -> {
        AgentProfile p =
            agents
                .centurio(slot.owner)
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "agent "
                                + slot.owner
                                + " has no readable prompt.md under castra/centuriones/"));
        yield new Resolved(
            backendFor(p),
            p.description(),
            p.prompt(),
            p.model(),
            p.promptHash(),
            null,
            p.historyWindow().orElse(settings.historyWindow()),
            p.maxInputTokens().orElse(settings.maxInputTokens()),
            settings.idleTimeout(),
            SessionSpec.OPERATOR_ROLE,
            List.of());
      }
      case LEGATUS -> {
        AgentProfile p = agents.legatus();
        List<AgentProfile> centuriones = agents.centuriones();
        Roster roster = Roster.of(centuriones);
        yield new Resolved(
            backendFor(p),
            p.description(),
            p.prompt() + "\n\n" + roster.xml(),
            p.model(),
            p.promptHash(),
            roster.hash(),
            p.historyWindow().orElse(settings.historyWindow()),
            p.maxInputTokens().orElse(settings.maxInputTokens()),
            settings.idleTimeout(),
            SessionSpec.OPERATOR_ROLE,
            centuriones);
      }
      case CHANNEL -> {
        AgentProfile p = agents.legatus();
        String role = settings.channels().roleFor(slot.source);
        yield new Resolved(
            backendFor(p),
            p.description(),
            p.prompt()
                + "\n\nYou are talking with Caesar through the "
                + slot.source
                + " channel "
                + slot.owner
                + " (role: "
                + role
                + ").",
            p.model(),
            p.promptHash(),
            null,
            p.historyWindow().orElse(settings.historyWindow()),
            settings.channels().contextThresholdTokens(),
            settings.channels().idleTimeout(),
            role,
            List.of());
      }
    };
  }

  /**
   * One turn of {@code slot}'s session for {@code request}.
   *
   * @param place the request's place in the owner's queue (to tell how long it waited)
   */
  private Reply turn(
      Slot slot,
      Message request,
      DispatchListener listener,
      TurnQueue.Place place,
      boolean preLeased) {
    String owner = slot.owner;
    String description = "";
    if (closing && Thread.currentThread().isInterrupted()) {
      releaseIf(preLeased, owner);
      return interrupted(slot, request, description);
    }
    Duration waited = Duration.ofNanos(place.waitedNanos());
    if (waited.compareTo(settings.lockWait()) > 0) {
      releaseIf(preLeased, owner);
      return busy(slot, request, "it was busy for " + waited.toSeconds() + " s");
    }
    if (!preLeased && !acquireLease(owner, settings.lockWait().minus(waited))) {
      return busy(slot, request, "another Legio process holds its session");
    }
    boolean leased = true;
    try {
      Resolved r = resolve(slot);
      description = r.description();
      Instant now = clock.instant();
      boolean fresh = prepare(slot, r, store.find(owner).orElse(null), now);
      String message = compose(slot, r, fresh, request);
      slot.activity = "working";
      TurnEvents events = new TurnEvents(owner, listener);
      TurnResult result;
      try {
        result = slot.live.send(message, events);
      } catch (SessionLostException e) {
        // The back-end lost the conversation: start a new one, bootstrapped from the log.
        log.warn("{}: {}", owner, e.getMessage());
        long rebuilds = slot.record.rebuilds() + 1;
        countRebuild(owner, RebuildReason.BACKEND_LOST, rebuilds);
        prepare(slot, r, slot.record.withRebuilds(rebuilds).closed("backend lost"), now);
        fresh = true;
        message = compose(slot, r, true, request);
        result = slot.live.send(message, events);
      }
      String answer = result.text().isBlank() ? "(no answer)" : result.text();
      Instant done = clock.instant();
      slot.record =
          slot.record
              .afterTurn(
                  result.usage().inputTokens(),
                  result.usage().outputTokens(),
                  request.sequence(),
                  done,
                  done.plus(settings.ttlFor(r.backend().kind())))
              // A back-end that cannot tell leaves the figures of the last turn that could.
              .withContext(result.context());
      if (!Objects.equals(slot.live.backendSessionId(), slot.record.backendSessionId())) {
        // The back-end moved to a new conversation (an HTTP back-end summarised the old one).
        slot.record = slot.record.withBackendSessionId(slot.live.backendSessionId());
      }
      Message reply =
          store.finishTurn(
              messageLog,
              NewMessage.of(speaker(slot), replyAudience(slot), answer).replyingTo(request.id()),
              slot.record,
              holder);
      leased = false;
      slot.activity = "idle";
      notifyTurn(
          new CompletedTurn(
              owner,
              slot.record.sessionId(),
              fresh,
              message,
              answer,
              r.model(),
              result.usage(),
              done,
              r.backend().kind(),
              events.toolCalls,
              events.compactions,
              result.context()));
      return new Reply(owner, description, r.backend().displayName(), answer, false, reply.id());
    } catch (RuntimeException e) {
      slot.activity = "error";
      if (closing) {
        log.warn("{}: turn interrupted by shutdown", owner, e);
        return interrupted(slot, request, description);
      }
      log.error("{}: the turn for request {} failed", owner, request.id(), e);
      return Reply.failure(owner, description, backend.displayName(), errorText(owner));
    } finally {
      if (leased) {
        store.releaseLease(owner, holder);
      }
    }
  }

  /**
   * Passes a turn's events on to the dispatch listener, and keeps what the turn listener is told
   * about them: the tool calls and the compactions.
   */
  private static final class TurnEvents implements java.util.function.Consumer<BackendEvent> {
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
    if (turnListener == TurnListener.NONE) {
      return;
    }
    Runnable tell =
        () -> {
          try {
            turnListener.turnCompleted(turn);
          } catch (RuntimeException e) {
            log.warn("{}: the turn listener failed (the turn itself succeeded)", turn.owner(), e);
          }
        };
    try {
      listenerThread.execute(tell);
    } catch (java.util.concurrent.RejectedExecutionException shutDown) {
      tell.run(); // a turn that outlived the shutdown grace: tell the listener here
    }
  }

  /** Who answers in the log for this slot: the agent, or the legatus for a channel. */
  private static String speaker(Slot slot) {
    return slot.kind == Kind.CHANNEL ? Names.LEGATUS : slot.owner;
  }

  private Audience replyAudience(Slot slot) {
    return slot.kind == Kind.CHANNEL ? Audience.of(slot.owner) : Audience.of(Names.CAESAR);
  }

  private Reply busy(Slot slot, Message request, String why) {
    log.warn("{}: request {} not dispatched: {}", slot.owner, request.id(), why);
    return Reply.failure(
        slot.owner,
        "",
        backend.displayName(),
        "["
            + slot.owner
            + "] Busy with another request ("
            + why
            + "). Your message is logged; send it again shortly.");
  }

  private Reply interrupted(Slot slot, Message request, String description) {
    String text = "(interrupted: Legio shut down before " + slot.owner + " answered)";
    UUID id = null;
    try {
      id =
          messageLog
              .append(
                  NewMessage.of(speaker(slot), replyAudience(slot), text).replyingTo(request.id()))
              .id();
    } catch (RuntimeException e) {
      log.warn("{}: could not record the interruption", slot.owner, e);
    }
    return new Reply(slot.owner, description, backend.displayName(), text, true, id);
  }

  private void releaseIf(boolean leased, String owner) {
    if (leased) {
      store.releaseLease(owner, holder);
    }
  }

  private boolean acquireLease(String owner, Duration wait) {
    long deadline = System.nanoTime() + Math.max(0, wait.toNanos());
    while (true) {
      if (store.tryLease(owner, holder, clock.instant(), settings.leaseDuration())) {
        return true;
      }
      if (System.nanoTime() >= deadline) {
        return false;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /**
   * Makes {@code slot.live} the session to use for this turn, rebuilding or resuming as the rules
   * say. Returns true when the session is fresh (its model has none of the earlier context).
   */
  private boolean prepare(Slot slot, Resolved r, SessionRecord stored, Instant now) {
    RebuildReason reason = null;
    BackendSession opened = null;
    if (stored != null && stored.active()) {
      reason = rebuildReason(stored, r, now);
      boolean holding =
          slot.live != null
              && slot.record != null
              && slot.record.sessionId().equals(stored.sessionId());
      if (reason == null && holding) {
        slot.record = stored;
        return false;
      }
      if (reason == null) {
        // Legio restarted, or another process replaced the session: resume it if we can.
        closeLive(slot);
        if (r.backend().canResume() && stored.backendSessionId() != null) {
          opened = r.backend().open(spec(slot, r, stored.backendSessionId()));
          if (opened.resumed()) {
            log.info("{}: resumed back-end session {}", slot.owner, stored.backendSessionId());
            slot.live = opened;
            slot.record = stored;
            return false;
          }
        }
        reason = RebuildReason.RESTART;
      }
    }
    closeLive(slot);
    long rebuilds = stored == null ? 0 : stored.rebuilds();
    if (reason != null) {
      rebuilds++;
      countRebuild(slot.owner, reason, rebuilds);
    }
    if (opened == null) {
      opened = r.backend().open(spec(slot, r, null));
    }
    slot.live = opened;
    slot.record =
        new SessionRecord(
            slot.owner,
            Generators.timeBasedEpochGenerator().generate(),
            r.backend().kind(),
            opened.backendSessionId(),
            r.promptHash(),
            r.rosterHash(),
            0,
            0,
            0,
            0,
            now,
            now,
            now.plus(settings.ttlFor(r.backend().kind())),
            SessionRecord.State.ACTIVE,
            null,
            rebuilds);
    store.save(slot.record);
    return true;
  }

  private RebuildReason rebuildReason(SessionRecord stored, Resolved r, Instant now) {
    if (!stored.backend().equals(r.backend().kind())) {
      return RebuildReason.BACKEND_CHANGED;
    }
    if (!stored.promptHash().equals(r.promptHash())) {
      return RebuildReason.PROMPT_CHANGED;
    }
    if (r.rosterHash() != null && !r.rosterHash().equals(stored.rosterHash())) {
      return RebuildReason.ROSTER_CHANGED;
    }
    if (stored.inputTokens() > r.maxInputTokens()) {
      return RebuildReason.TOKEN_LIMIT;
    }
    if (Duration.between(stored.lastActiveAt(), now).compareTo(r.idleTimeout()) > 0) {
      return RebuildReason.IDLE;
    }
    return null;
  }

  private SessionSpec spec(Slot slot, Resolved r, String resumeId) {
    return new SessionSpec(
        slot.owner, withMemory(slot, r.systemPrompt()), r.model(), r.role(), resumeId);
  }

  /**
   * An agent's system prompt with its long-term memory added, read when a session opens (not part
   * of the prompt hash, so new memory does not rebuild a live session). Channels get none.
   */
  private String withMemory(Slot slot, String systemPrompt) {
    if (slot.kind == Kind.CHANNEL) {
      return systemPrompt;
    }
    String block;
    try {
      block = memory.forAgent(slot.owner);
    } catch (RuntimeException e) {
      log.warn(
          "{}: its long-term memory could not be read; the session opens without it",
          slot.owner,
          e);
      return systemPrompt;
    }
    return block == null || block.isBlank() ? systemPrompt : systemPrompt + "\n\n" + block;
  }

  private void countRebuild(String owner, RebuildReason reason, long total) {
    rebuildCounts.get(reason).incrementAndGet();
    log.info(
        "{}: session rebuilt: {} (rebuild #{} of this owner)", owner, reason.description(), total);
  }

  /** The text sent to the model for this turn: context blocks, then the request. */
  private String compose(Slot slot, Resolved r, boolean fresh, Message request) {
    List<String> parts = new ArrayList<>(4);
    String viewer =
        slot.kind == Kind.CENTURIO || slot.kind == Kind.CHANNEL ? slot.owner : Names.LEGATUS;
    if (fresh || slot.kind != Kind.LEGATUS) {
      long after = fresh ? 0 : slot.record.lastInjectedSequence();
      List<Message> history =
          messageLog.visibleTo(viewer, after, request.sequence(), r.historyWindow());
      if (!fresh) {
        String speaker = speaker(slot);
        if (history.size() == r.historyWindow()
            && !history.isEmpty()
            && !messageLog.visibleTo(viewer, after, history.get(0).sequence(), 1).isEmpty()) {
          log.info(
              "{}: more than history_window={} new messages since its last turn; the oldest were"
                  + " not injected",
              slot.owner,
              r.historyWindow());
        }
        // The live session already holds what its own owner said.
        history = history.stream().filter(m -> !m.sender().equals(speaker)).toList();
      }
      if (!history.isEmpty()) {
        parts.add(PraetoriumXml.format(history, viewer));
        if (fresh) {
          parts.add(PraetoriumXml.CONTEXT_NOTICE);
        }
      }
    }
    if (slot.kind == Kind.LEGATUS) {
      parts.add(Roster.statusXml(activityOf(r.centuriones()), contextOf(r.centuriones())));
    }
    parts.add(request.text());
    return String.join("\n\n", parts);
  }

  private Map<String, String> activityOf(List<AgentProfile> centuriones) {
    Set<String> leased = store.leasedOwners(clock.instant());
    Map<String, String> status = new TreeMap<>();
    for (AgentProfile p : centuriones) {
      status.put(p.name(), activity(agentSlots.get(p.name()), p.name(), leased));
    }
    return status;
  }

  /**
   * How full each centurio's active session is ({@code 42%}), for those whose record has figures.
   */
  private Map<String, String> contextOf(List<AgentProfile> centuriones) {
    Set<String> names = new TreeSet<>();
    centuriones.forEach(p -> names.add(p.name()));
    Map<String, String> context = new TreeMap<>();
    for (SessionRecord record : store.list()) {
      ContextUse use = record.context();
      if (names.contains(record.owner()) && record.active() && use != null && use.window() > 0) {
        context.put(record.owner(), Math.round(use.percent()) + "%");
      }
    }
    return context;
  }

  private void closeLive(Slot slot) {
    if (slot.live != null) {
      try {
        slot.live.close();
      } catch (RuntimeException e) {
        log.warn("{}: closing the back-end session failed", slot.owner, e);
      }
      slot.live = null;
    }
  }

  /** Closes the owner's session in this process and marks its record closed. */
  private boolean closeSlot(Slot slot, String why, RebuildReason reason) {
    closeLive(slot);
    slot.record = null;
    Optional<SessionRecord> stored = store.find(slot.owner);
    if (stored.isEmpty() || !stored.get().active()) {
      return false;
    }
    SessionRecord record = stored.get();
    long rebuilds = record.rebuilds();
    if (reason != null) {
      rebuilds++;
      countRebuild(slot.owner, reason, rebuilds);
    }
    store.save(record.withRebuilds(rebuilds).closed(why));
    log.info("{}: session closed: {}", slot.owner, why);
    return true;
  }

  // ------------------------------------------------------------------ commands

  /**
   * Resets an agent's (or channel's) session: the next request starts a fresh one. Waits for a turn
   * in progress. Returns false when the owner had no active session.
   */
  public boolean reset(String owner) {
    Names.require(owner, "agent");
    Slot slot =
        owner.contains(":")
            ? channelSlotIfPresent(owner)
            : knownAgents().contains(owner) ? agentSlot(owner) : null;
    if (slot == null) {
      if (owner.contains(":")) {
        return closeStored(owner);
      }
      throw new IllegalArgumentException(
          "no agent named '"
              + owner
              + "'. Known agents: "
              + String.join(", ", knownAgents())
              + ".");
    }
    return runOn(
        slot, () -> closeSlot(slot, RebuildReason.RESET.description(), RebuildReason.RESET));
  }

  /** Resets every agent's session; returns the agents whose active session was closed. */
  public List<String> resetAll() {
    List<String> closed = new ArrayList<>();
    for (String name : knownAgents()) {
      if (reset(name)) {
        closed.add(name);
      }
    }
    return closed;
  }

  private boolean closeStored(String owner) {
    Slot detached = new Slot(owner, Kind.CHANNEL, owner.substring(0, owner.indexOf(':')));
    return closeSlot(detached, RebuildReason.RESET.description(), RebuildReason.RESET);
  }

  private Slot channelSlotIfPresent(String key) {
    synchronized (channelSlots) {
      return channelSlots.get(key);
    }
  }

  private <T> T runOn(Slot slot, java.util.function.Supplier<T> task) {
    try {
      return slot.queue.run(slot.queue.enqueue(), task);
    } catch (RuntimeException e) {
      throw new IllegalStateException("could not reset " + slot.owner + ": " + e.getMessage(), e);
    }
  }

  /**
   * Closes the agent sessions this process holds that were idle longer than their timeout. The
   * background reaper calls it every {@link SessionSettings#reaperInterval()}. Returns how many
   * were closed.
   */
  public int reapIdle() {
    Instant now = clock.instant();
    int closed = 0;
    for (Slot slot : new ArrayList<>(agentSlots.values())) {
      closed += reapIfFree(slot, now, settings.idleTimeout());
    }
    return closed;
  }

  /**
   * Closes channel sessions idle longer than the channel timeout (run every {@link
   * SessionSettings.Channels#cleanupInterval()}). Returns how many were closed.
   */
  public int cleanupChannels() {
    Instant now = clock.instant();
    List<Slot> slots;
    synchronized (channelSlots) {
      slots = new ArrayList<>(channelSlots.values());
    }
    int closed = 0;
    for (Slot slot : slots) {
      closed += reapIfFree(slot, now, settings.channels().idleTimeout());
    }
    return closed;
  }

  /** A session with a turn running or queued is not idle: it is left alone. */
  private int reapIfFree(Slot slot, Instant now, Duration timeout) {
    try {
      return slot.queue.runIfFree(() -> reapIfIdle(slot, now, timeout)).orElse(false) ? 1 : 0;
    } catch (RuntimeException e) {
      log.warn("{}: closing an idle session failed", slot.owner, e);
      return 0;
    }
  }

  private boolean reapIfIdle(Slot slot, Instant now, Duration timeout) {
    if (slot.live == null || slot.record == null) {
      return false;
    }
    if (Duration.between(slot.record.lastActiveAt(), now).compareTo(timeout) <= 0) {
      return false;
    }
    return closeSlot(slot, RebuildReason.IDLE.description(), RebuildReason.IDLE);
  }

  /** Deletes session records whose time to live ran out. Returns how many. */
  public int deleteExpiredRecords() {
    int deleted = store.deleteExpired(clock.instant());
    log.info("deleted {} expired session records", deleted);
    return deleted;
  }

  /** How many rebuilds this process made, per reason. */
  public Map<RebuildReason, Long> rebuildCounts() {
    Map<RebuildReason, Long> counts = new EnumMap<>(RebuildReason.class);
    rebuildCounts.forEach((reason, n) -> counts.put(reason, n.get()));
    return counts;
  }

  /** Every agent (legatus first) and every channel with a record, with its session. */
  public List<SessionStatus> status() {
    Instant now = clock.instant();
    Map<String, SessionRecord> records = new LinkedHashMap<>();
    for (SessionRecord r : store.list()) {
      records.put(r.owner(), r);
    }
    Set<String> leased = store.leasedOwners(now);
    List<SessionStatus> out = new ArrayList<>();
    out.add(
        statusOf(
            Names.LEGATUS,
            agents.legatus().description(),
            records.remove(Names.LEGATUS),
            leased,
            now));
    for (AgentProfile p : agents.centuriones()) {
      out.add(statusOf(p.name(), p.description(), records.remove(p.name()), leased, now));
    }
    for (SessionRecord r : records.values()) {
      if (r.owner().contains(":")) {
        out.add(statusOf(r.owner(), "channel", r, leased, now));
      }
    }
    return out;
  }

  private SessionStatus statusOf(
      String owner, String description, SessionRecord r, Set<String> leased, Instant now) {
    Slot slot = owner.contains(":") ? channelSlotIfPresent(owner) : agentSlots.get(owner);
    Duration age = r != null && r.active() ? Duration.between(r.createdAt(), now) : null;
    return new SessionStatus(owner, description, activity(slot, owner, leased), r, age);
  }

  /**
   * What an owner is doing: this process's view of its own turns, else "working" while another
   * Legio process holds the owner's lease.
   */
  private static String activity(Slot slot, String owner, Set<String> leased) {
    String local = slot == null ? "idle" : slot.activity;
    return local.equals("idle") && leased.contains(owner) ? "working" : local;
  }

  // ------------------------------------------------------------------ shutdown

  /**
   * Stops taking messages, lets dispatches in flight finish (up to {@link
   * SessionSettings#shutdownGrace()}; the rest are interrupted and recorded as such), then closes
   * the agents' sessions, the legatus's, and the channels'. The caller closes the stores after.
   */
  @Override
  public void close() {
    synchronized (postLock) {
      if (closing) {
        return;
      }
      closing = true;
    }
    List<Slot> order = new ArrayList<>();
    agentSlots.values().stream().filter(s -> s.kind == Kind.CENTURIO).forEach(order::add);
    Optional.ofNullable(agentSlots.get(Names.LEGATUS)).ifPresent(order::add);
    synchronized (channelSlots) {
      order.addAll(channelSlots.values());
    }
    long deadline = System.nanoTime() + settings.shutdownGrace().toNanos();
    for (Slot slot : order) {
      if (!slot.queue.awaitIdle(Math.max(0, deadline - System.nanoTime()))) {
        log.warn("{}: dispatch still running at shutdown; interrupting it", slot.owner);
        slot.queue.interruptAll();
        slot.queue.awaitIdle(TimeUnit.SECONDS.toNanos(5));
      }
      closeLive(slot);
    }
    parallelTurns.shutdown();
    listenerThread.shutdown();
    try {
      if (!listenerThread.awaitTermination(
          settings.shutdownGrace().toNanos(), TimeUnit.NANOSECONDS)) {
        log.warn("the turn listener (transcripts) did not finish within the shutdown grace");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.info("session engine stopped: {} sessions closed", order.size());
  }
}
