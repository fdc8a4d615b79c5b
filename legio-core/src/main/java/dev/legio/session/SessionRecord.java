package dev.legio.session;

import dev.legio.backend.ContextUse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * What Legio keeps about one conversation session, in the store, so that nothing depends on the
 * process staying up. There is one record per owner: the current session of that agent or channel.
 *
 * @param owner the agent ({@code vorenus}, {@code legatus}) or channel ({@code telegram:123})
 * @param sessionId Legio's own id for this session; a rebuild starts a new one
 * @param backend the kind of model back-end ({@code offline}, {@code claude-cli}, ...)
 * @param backendSessionId the back-end's own id for the conversation, where it has one (used to
 *     resume after a restart); null otherwise
 * @param promptHash hex SHA-256 of the prompt file the session was opened with
 * @param rosterHash for the legatus, hex SHA-256 of the roster it was told about; null otherwise
 * @param inputTokens cumulative input tokens the back-end reported for this session
 * @param outputTokens cumulative output tokens
 * @param messageCount turns sent in this session
 * @param lastInjectedSequence the sequence number of the newest log message this session has
 *     received (as injected history or as the request itself); 0 when none
 * @param expiresAt when the record may be deleted by the scheduled cleanup (last activity plus the
 *     back-end's time to live)
 * @param state {@link State#ACTIVE} while the session may be continued
 * @param closeReason why the session was closed (a {@link RebuildReason} name, or free text); null
 *     while active
 * @param rebuilds how many times this owner's session has been rebuilt, over all sessions
 * @param context how full the session's context was after its last turn that reported it (tokens
 *     against the model's window, and whether auto-compact gave up); null when no turn has reported
 *     one yet (a fresh or rebuilt session, or a back-end that cannot tell)
 * @param previousBackendSessionIds the back-end conversations this session ran on before {@code
 *     backendSessionId}, oldest first: each condensing ({@link SessionCondenser}) adds the one it
 *     left; empty for a session never condensed
 */
public record SessionRecord(
    String owner,
    UUID sessionId,
    String backend,
    String backendSessionId,
    String promptHash,
    String rosterHash,
    long inputTokens,
    long outputTokens,
    long messageCount,
    long lastInjectedSequence,
    Instant createdAt,
    Instant lastActiveAt,
    Instant expiresAt,
    State state,
    String closeReason,
    long rebuilds,
    ContextUse context,
    List<String> previousBackendSessionIds) {

  public enum State {
    ACTIVE,
    CLOSED
  }

  public SessionRecord {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(promptHash, "promptHash");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastActiveAt, "lastActiveAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(state, "state");
    previousBackendSessionIds =
        previousBackendSessionIds == null ? List.of() : List.copyOf(previousBackendSessionIds);
  }

  /** A record of a session never condensed. */
  public SessionRecord(
      String owner,
      UUID sessionId,
      String backend,
      String backendSessionId,
      String promptHash,
      String rosterHash,
      long inputTokens,
      long outputTokens,
      long messageCount,
      long lastInjectedSequence,
      Instant createdAt,
      Instant lastActiveAt,
      Instant expiresAt,
      State state,
      String closeReason,
      long rebuilds,
      ContextUse context) {
    this(
        owner,
        sessionId,
        backend,
        backendSessionId,
        promptHash,
        rosterHash,
        inputTokens,
        outputTokens,
        messageCount,
        lastInjectedSequence,
        createdAt,
        lastActiveAt,
        expiresAt,
        state,
        closeReason,
        rebuilds,
        context,
        List.of());
  }

  /** A record without context figures (a session no turn has reported them for yet). */
  public SessionRecord(
      String owner,
      UUID sessionId,
      String backend,
      String backendSessionId,
      String promptHash,
      String rosterHash,
      long inputTokens,
      long outputTokens,
      long messageCount,
      long lastInjectedSequence,
      Instant createdAt,
      Instant lastActiveAt,
      Instant expiresAt,
      State state,
      String closeReason,
      long rebuilds) {
    this(
        owner,
        sessionId,
        backend,
        backendSessionId,
        promptHash,
        rosterHash,
        inputTokens,
        outputTokens,
        messageCount,
        lastInjectedSequence,
        createdAt,
        lastActiveAt,
        expiresAt,
        state,
        closeReason,
        rebuilds,
        null);
  }

  public SessionRecord withBackendSessionId(String id) {
    return with(c -> c.backendSessionId = id);
  }

  /** The record after one completed turn. */
  public SessionRecord afterTurn(
      long addedInputTokens,
      long addedOutputTokens,
      long injectedUpTo,
      Instant now,
      Instant expiry) {
    return with(
        c -> {
          c.inputTokens += addedInputTokens;
          c.outputTokens += addedOutputTokens;
          c.messageCount++;
          c.lastInjectedSequence = Math.max(lastInjectedSequence, injectedUpTo);
          c.lastActiveAt = now;
          c.expiresAt = expiry;
        });
  }

  public SessionRecord closed(String reason) {
    return with(
        c -> {
          c.state = State.CLOSED;
          c.closeReason = reason;
        });
  }

  /** The record active again, last active {@code now} and expiring at {@code expires}. */
  public SessionRecord reopened(Instant now, Instant expires) {
    return with(
        c -> {
          c.lastActiveAt = now;
          c.expiresAt = expires;
          c.state = State.ACTIVE;
          c.closeReason = null;
        });
  }

  public SessionRecord withRebuilds(long count) {
    return with(c -> c.rebuilds = count);
  }

  /**
   * The record with {@code use} as its context figures; {@code null} keeps the ones it has (a turn
   * whose back-end could not tell says nothing new).
   */
  public SessionRecord withContext(ContextUse use) {
    if (use == null || use.equals(context)) {
      return this;
    }
    return with(c -> c.context = use);
  }

  /**
   * The record after condensing onto the back-end conversation {@code newBackendSessionId}: the
   * conversation it leaves joins {@link #previousBackendSessionIds()}, its token counts and context
   * figures start again from nothing; its session id, messages and last injected sequence stay.
   */
  public SessionRecord condensed(String newBackendSessionId) {
    List<String> previous = new ArrayList<>(previousBackendSessionIds);
    if (backendSessionId != null) {
      previous.add(backendSessionId);
    }
    return with(
        c -> {
          c.backendSessionId = newBackendSessionId;
          c.inputTokens = 0;
          c.outputTokens = 0;
          c.context = null;
          c.previousBackendSessionIds = previous;
        });
  }

  /**
   * A copy of this record with what {@code change} sets on its components. The one place that lists
   * the eighteen components in order for a changed record, so that a change names what it changes
   * and cannot put a value in the wrong place.
   */
  private SessionRecord with(Consumer<Components> change) {
    Components c = new Components(this);
    change.accept(c);
    return new SessionRecord(
        c.owner,
        c.sessionId,
        c.backend,
        c.backendSessionId,
        c.promptHash,
        c.rosterHash,
        c.inputTokens,
        c.outputTokens,
        c.messageCount,
        c.lastInjectedSequence,
        c.createdAt,
        c.lastActiveAt,
        c.expiresAt,
        c.state,
        c.closeReason,
        c.rebuilds,
        c.context,
        c.previousBackendSessionIds);
  }

  /** A record's components, copied to be changed by {@link #with}. */
  private static final class Components {
    final String owner;
    final UUID sessionId;
    final String backend;
    String backendSessionId;
    final String promptHash;
    final String rosterHash;
    long inputTokens;
    long outputTokens;
    long messageCount;
    long lastInjectedSequence;
    final Instant createdAt;
    Instant lastActiveAt;
    Instant expiresAt;
    State state;
    String closeReason;
    long rebuilds;
    ContextUse context;
    List<String> previousBackendSessionIds;

    Components(SessionRecord r) {
      owner = r.owner;
      sessionId = r.sessionId;
      backend = r.backend;
      backendSessionId = r.backendSessionId;
      promptHash = r.promptHash;
      rosterHash = r.rosterHash;
      inputTokens = r.inputTokens;
      outputTokens = r.outputTokens;
      messageCount = r.messageCount;
      lastInjectedSequence = r.lastInjectedSequence;
      createdAt = r.createdAt;
      lastActiveAt = r.lastActiveAt;
      expiresAt = r.expiresAt;
      state = r.state;
      closeReason = r.closeReason;
      rebuilds = r.rebuilds;
      context = r.context;
      previousBackendSessionIds = r.previousBackendSessionIds;
    }
  }

  public boolean active() {
    return state == State.ACTIVE;
  }
}
