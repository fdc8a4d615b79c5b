package dev.legio.session;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.ContextUse;
import dev.legio.backend.Usage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * One turn of a session, as the model saw it.
 *
 * @param owner the agent or channel
 * @param sessionId Legio's id of the session ({@link SessionRecord#sessionId()})
 * @param fresh true when this was the session's first turn
 * @param sent what was sent to the model: the context blocks and the request
 * @param reply the model's answer
 * @param model the model asked for, or null for the back-end's default
 * @param backendKind the kind of back-end that answered ({@code anthropic}, {@code claude-cli},
 *     ...)
 * @param toolCalls how many tools the model called during the turn
 * @param compactions the compactions of the conversation that ran before the turn, in order
 * @param context how full the session's context is after the turn; null when unknown
 * @param duration how long the turn took, from the lease to the reply; null when the engine did not
 *     measure it
 * @param sessionCreated when the session was created ({@link SessionRecord#createdAt()}), which a
 *     transcript begun by this turn carries as its start; null when the turn's session has no such
 *     record (a task session's turn)
 * @see #builder(String, UUID) to build one with the fields named
 */
public record CompletedTurn(
    String owner,
    UUID sessionId,
    boolean fresh,
    String sent,
    String reply,
    String model,
    Usage usage,
    Instant at,
    String backendKind,
    int toolCalls,
    List<BackendEvent.CompactionEnded> compactions,
    ContextUse context,
    Duration duration,
    Instant sessionCreated) {
  /**
   * Refuses a turn without what its readers need, naming the field: {@code owner}, {@code
   * sessionId}, {@code sent}, {@code reply}, {@code at} (the transcript and the memory extractor
   * read them), {@code usage} and {@code backendKind} (the usage ledger prices the turn from them;
   * {@link Usage#NONE} says the back-end reported none). No compactions may be given as null.
   */
  public CompletedTurn {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(sent, "sent");
    Objects.requireNonNull(reply, "reply");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(usage, "usage");
    Objects.requireNonNull(backendKind, "backendKind");
    compactions = compactions == null ? List.of() : List.copyOf(compactions);
  }

  /**
   * A builder for a turn of {@code owner}'s session {@code sessionId}, whose fields are set by name
   * rather than by position (several are strings, and several may be null).
   */
  public static Builder builder(String owner, UUID sessionId) {
    return new Builder(owner, sessionId);
  }

  /**
   * Builds a {@link CompletedTurn} field by field.
   *
   * <p>Rules:
   *
   * <ul>
   *   <li>{@code owner} and {@code sessionId} are given to {@link CompletedTurn#builder} and must
   *       not be null.
   *   <li>Required, or {@link #build()} throws a {@link NullPointerException} naming the field, as
   *       the record itself does: {@code sent}, {@code reply}, {@code at}, {@code usage} and {@code
   *       backendKind}.
   *   <li>Defaults when not set: {@code fresh} false (not the session's first turn); {@code model}
   *       null (the back-end's default model); {@code toolCalls} 0; {@code compactions} none;
   *       {@code context} null (unknown); {@code duration} null (the engine did not measure it);
   *       {@code sessionCreated} null (the session has no record, as for a task session's turn).
   *   <li>A setter called twice keeps the last value; {@code build()} may be called more than once.
   * </ul>
   */
  public static final class Builder {
    private final String owner;
    private final UUID sessionId;
    private boolean fresh;
    private String sent;
    private String reply;
    private String model;
    private Usage usage;
    private Instant at;
    private String backendKind;
    private int toolCalls;
    private List<BackendEvent.CompactionEnded> compactions = List.of();
    private ContextUse context;
    private Duration duration;
    private Instant sessionCreated;

    private Builder(String owner, UUID sessionId) {
      this.owner = Objects.requireNonNull(owner, "owner");
      this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
    }

    /** Whether this was the session's first turn; false unless set. */
    public Builder fresh(boolean fresh) {
      this.fresh = fresh;
      return this;
    }

    /** What was sent to the model: the context blocks and the request. Required. */
    public Builder sent(String sent) {
      this.sent = sent;
      return this;
    }

    /** The model's answer. Required. */
    public Builder reply(String reply) {
      this.reply = reply;
      return this;
    }

    /** The model asked for; null (the default) for the back-end's default. */
    public Builder model(String model) {
      this.model = model;
      return this;
    }

    /** The tokens the turn cost; {@link Usage#NONE} when none were reported. Required. */
    public Builder usage(Usage usage) {
      this.usage = usage;
      return this;
    }

    /** When the turn ended. Required. */
    public Builder at(Instant at) {
      this.at = at;
      return this;
    }

    /**
     * The kind of back-end that answered ({@code anthropic}, {@code claude-cli}, ...). Required.
     */
    public Builder backendKind(String backendKind) {
      this.backendKind = backendKind;
      return this;
    }

    /** How many tools the model called during the turn; 0 unless set. */
    public Builder toolCalls(int toolCalls) {
      this.toolCalls = toolCalls;
      return this;
    }

    /** The compactions that ran before the turn, in order; none unless set (null means none). */
    public Builder compactions(List<BackendEvent.CompactionEnded> compactions) {
      this.compactions = compactions;
      return this;
    }

    /** How full the session's context is after the turn; null (the default) when unknown. */
    public Builder context(ContextUse context) {
      this.context = context;
      return this;
    }

    /** How long the turn took; null (the default) when the engine did not measure it. */
    public Builder duration(Duration duration) {
      this.duration = duration;
      return this;
    }

    /**
     * When the session was created ({@link SessionRecord#createdAt()}); null (the default) when the
     * session has no record.
     */
    public Builder sessionCreated(Instant sessionCreated) {
      this.sessionCreated = sessionCreated;
      return this;
    }

    /**
     * The turn.
     *
     * @throws NullPointerException naming the first required field not set
     */
    public CompletedTurn build() {
      return new CompletedTurn(
          owner,
          sessionId,
          fresh,
          sent,
          reply,
          model,
          usage,
          at,
          backendKind,
          toolCalls,
          compactions,
          context,
          duration,
          sessionCreated);
    }
  }
}
