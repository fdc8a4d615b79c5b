package dev.legio.session;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.ModelBackend;
import dev.legio.config.LegatusSettings;
import dev.legio.config.SessionSettings;
import dev.legio.log.MessageLog;
import java.time.Clock;
import java.time.InstantSource;
import java.util.Objects;
import java.util.function.Function;

/**
 * Builds a {@link SessionEngine}. Required: {@link #messageLog}, {@link #store}, {@link #agents}
 * and {@link #backend}. Defaults: {@link SessionSettings#defaults()}, the system clock, no turn
 * listener, the legatus's digest as {@code [legatus]}'s defaults, no other back-ends, no long-term
 * memory, no brief writer (no session is condensed), no unfinished edits to finish, leases waited
 * for in real time.
 */
public final class SessionEngineBuilder {
  private MessageLog messageLog;
  private SessionStore store;
  private AgentDirectory agents;
  private ModelBackend backend;
  private SessionSettings settings = SessionSettings.defaults();
  private LegatusSettings legatus = LegatusSettings.defaults();
  private Clock clock = Clock.systemUTC();
  private TurnListener turnListener = TurnListener.NONE;
  private Function<String, ModelBackend> backendsByKind;
  private MemoryPrompt memory = MemoryPrompt.NONE;
  private BriefWriter briefWriter = BriefWriter.NONE;
  private UnfinishedEdits unfinishedEdits = UnfinishedEdits.NONE;
  private InstantSource leaseWaitTime = LeaseGate.MONOTONIC;
  private LeaseGate.Sleeper leaseSleeper = LeaseGate.Sleeper.REAL;

  SessionEngineBuilder() {}

  /** Where requests and replies are logged. */
  public SessionEngineBuilder messageLog(MessageLog log) {
    this.messageLog = log;
    return this;
  }

  /** Where session records and leases are kept (the message log's database). */
  public SessionEngineBuilder store(SessionStore sessions) {
    this.store = sessions;
    return this;
  }

  /** The legatus and the centuriones. */
  public SessionEngineBuilder agents(AgentDirectory directory) {
    this.agents = directory;
    return this;
  }

  /** The default back-end. */
  public SessionEngineBuilder backend(ModelBackend model) {
    this.backend = model;
    return this;
  }

  public SessionEngineBuilder settings(SessionSettings sessionSettings) {
    this.settings = Objects.requireNonNull(sessionSettings, "settings");
    return this;
  }

  /** The {@code [legatus]} settings (its digest); default: {@link LegatusSettings#defaults()}. */
  public SessionEngineBuilder legatus(LegatusSettings legatusSettings) {
    this.legatus = Objects.requireNonNull(legatusSettings, "legatus");
    return this;
  }

  /** The time of records, leases and idle timeouts (tests pass a {@code MutableClock}). */
  public SessionEngineBuilder clock(Clock time) {
    this.clock = Objects.requireNonNull(time, "clock");
    return this;
  }

  /**
   * Told of every completed turn: on a thread of its own, off the turn's path, one turn at a time
   * in the order the turns completed; {@link SessionEngine#close} waits for the turns it has not
   * heard of.
   */
  public SessionEngineBuilder turnListener(TurnListener listener) {
    this.turnListener = Objects.requireNonNull(listener, "turnListener");
    return this;
  }

  /**
   * The back-end of each kind an agent may name in its front matter ({@code backend: ollama}); null
   * (the default): only {@link #backend} exists, and an agent naming another kind fails its turns.
   */
  public SessionEngineBuilder backendsByKind(Function<String, ModelBackend> byKind) {
    this.backendsByKind = byKind;
    return this;
  }

  /** The long-term memory added to agents' new sessions (channels' get none). */
  public SessionEngineBuilder memory(MemoryPrompt prompt) {
    this.memory = Objects.requireNonNull(prompt, "memory");
    return this;
  }

  /**
   * Writes the briefs long Claude Code CLI sessions are condensed into ({@code [sessions]
   * condense_after_tokens}, {@link SessionCondenser}); default {@link BriefWriter#NONE}: no session
   * is condensed.
   */
  public SessionEngineBuilder briefWriter(BriefWriter writer) {
    this.briefWriter = Objects.requireNonNull(writer, "briefWriter");
    return this;
  }

  /**
   * Finishes an edit of a session a crash left half done (a rewind), at the start of its owner's
   * next turn ({@link UnfinishedEdits}); default {@link UnfinishedEdits#NONE}.
   */
  public SessionEngineBuilder unfinishedEdits(UnfinishedEdits edits) {
    this.unfinishedEdits = Objects.requireNonNull(edits, "unfinishedEdits");
    return this;
  }

  /** How a turn waits for a lease held elsewhere: the time it measures and how it sleeps. */
  SessionEngineBuilder leaseWaiting(InstantSource waitTime, LeaseGate.Sleeper sleeper) {
    this.leaseWaitTime = Objects.requireNonNull(waitTime, "waitTime");
    this.leaseSleeper = Objects.requireNonNull(sleeper, "sleeper");
    return this;
  }

  /**
   * The engine.
   *
   * @throws IllegalStateException naming the first required part that was not given
   */
  public SessionEngine build() {
    required(messageLog, "messageLog");
    required(store, "store");
    required(agents, "agents");
    required(backend, "backend");
    return new SessionEngine(this);
  }

  private static void required(Object part, String name) {
    if (part == null) {
      throw new IllegalStateException(
          "SessionEngine.builder(): " + name + "(...) is required; call it before build()");
    }
  }

  MessageLog messageLog() {
    return messageLog;
  }

  SessionStore store() {
    return store;
  }

  AgentDirectory agents() {
    return agents;
  }

  ModelBackend backend() {
    return backend;
  }

  SessionSettings settings() {
    return settings;
  }

  LegatusSettings legatus() {
    return legatus;
  }

  Clock clock() {
    return clock;
  }

  TurnListener turnListener() {
    return turnListener;
  }

  Function<String, ModelBackend> backendsByKind() {
    return backendsByKind;
  }

  MemoryPrompt memory() {
    return memory;
  }

  BriefWriter briefWriter() {
    return briefWriter;
  }

  UnfinishedEdits unfinishedEdits() {
    return unfinishedEdits;
  }

  InstantSource leaseWaitTime() {
    return leaseWaitTime;
  }

  LeaseGate.Sleeper leaseSleeper() {
    return leaseSleeper;
  }
}
