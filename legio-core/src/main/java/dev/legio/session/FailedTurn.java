package dev.legio.session;

import dev.legio.backend.TurnTimeoutException;
import dev.legio.backend.Usage;
import dev.legio.backend.http.HttpFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One turn of a session that reached its back-end and then failed: what the usage ledger records of
 * it. A turn refused before it reached the back-end (busy, no lease) is not one.
 *
 * @param owner the agent or channel
 * @param sessionId Legio's id of the session the turn ran in
 * @param model the model asked for, or null for the back-end's default
 * @param backendKind the kind of back-end asked
 * @param usage what is known of the tokens the turn used: all of them when the model answered (a
 *     lost lease), else {@link Usage#NONE}
 * @param at when the turn failed
 * @param duration how long the turn took, from the lease to the failure
 * @param cause how it failed
 * @see #builder(String, UUID) to build one with the fields named
 */
public record FailedTurn(
    String owner,
    UUID sessionId,
    String model,
    String backendKind,
    Usage usage,
    Instant at,
    Duration duration,
    Cause cause) {
  /**
   * Refuses a turn without what the usage ledger needs of it, naming the field: {@code owner},
   * {@code sessionId}, {@code backendKind} (the ledger prices the turn from it), {@code at} and
   * {@code cause} (the row's outcome). No usage given (null) is {@link Usage#NONE}.
   */
  public FailedTurn {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(backendKind, "backendKind");
    usage = usage == null ? Usage.NONE : usage;
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(cause, "cause");
  }

  /**
   * A builder for a failed turn of {@code owner}'s session {@code sessionId}, whose fields are set
   * by name rather than by position (the model and the back-end's kind are strings side by side).
   */
  public static Builder builder(String owner, UUID sessionId) {
    return new Builder(owner, sessionId);
  }

  /**
   * Builds a {@link FailedTurn} field by field.
   *
   * <p>Rules:
   *
   * <ul>
   *   <li>{@code owner} and {@code sessionId} are given to {@link FailedTurn#builder} and must not
   *       be null.
   *   <li>Required, or {@link #build()} throws a {@link NullPointerException} naming the field, as
   *       the record itself does: {@code backendKind}, {@code at} and {@code cause}.
   *   <li>Defaults when not set: {@code model} null (the back-end's default model); {@code usage}
   *       {@link Usage#NONE} (no tokens known; null means the same); {@code duration} null (not
   *       measured).
   *   <li>A setter called twice keeps the last value; {@code build()} may be called more than once.
   * </ul>
   */
  public static final class Builder {
    private final String owner;
    private final UUID sessionId;
    private String model;
    private String backendKind;
    private Usage usage = Usage.NONE;
    private Instant at;
    private Duration duration;
    private Cause cause;

    private Builder(String owner, UUID sessionId) {
      this.owner = Objects.requireNonNull(owner, "owner");
      this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
    }

    /** The model asked for; null (the default) for the back-end's default. */
    public Builder model(String model) {
      this.model = model;
      return this;
    }

    /** The kind of back-end asked ({@code anthropic}, {@code claude-cli}, ...). Required. */
    public Builder backendKind(String backendKind) {
      this.backendKind = backendKind;
      return this;
    }

    /**
     * What is known of the tokens the turn used: all of them when the model answered, else {@link
     * Usage#NONE} (the default; null means the same).
     */
    public Builder usage(Usage usage) {
      this.usage = usage;
      return this;
    }

    /** When the turn failed. Required. */
    public Builder at(Instant at) {
      this.at = at;
      return this;
    }

    /** How long the turn took, from the lease to the failure; null (the default) when unknown. */
    public Builder duration(Duration duration) {
      this.duration = duration;
      return this;
    }

    /** How the turn failed. Required. */
    public Builder cause(Cause cause) {
      this.cause = cause;
      return this;
    }

    /**
     * The turn.
     *
     * @throws NullPointerException naming the first required field not set
     */
    public FailedTurn build() {
      return new FailedTurn(owner, sessionId, model, backendKind, usage, at, duration, cause);
    }
  }

  /**
   * How a turn failed. Rule ({@link #of}): a {@link LeaseLostException} is {@link #LEASE_LOST}; a
   * {@link TurnTimeoutException} or an HTTP time-out ({@link HttpFailure.Kind#TIMEOUT}) anywhere in
   * the causes is {@link #TIMEOUT}; anything else is {@link #ERROR}.
   */
  public enum Cause {
    /** The back-end (or the store) failed the turn. */
    ERROR,
    /** The back-end did not answer in time. */
    TIMEOUT,
    /** The model answered, but the session's lease had passed to another process. */
    LEASE_LOST;

    public static Cause of(Throwable failure) {
      if (failure instanceof LeaseLostException) {
        return LEASE_LOST;
      }
      for (Throwable t = failure; t != null; t = t.getCause()) {
        if (t instanceof TurnTimeoutException
            || (t instanceof HttpFailure http && http.kind() == HttpFailure.Kind.TIMEOUT)) {
          return TIMEOUT;
        }
      }
      return ERROR;
    }
  }
}
