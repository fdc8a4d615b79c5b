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
  public FailedTurn {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(backendKind, "backendKind");
    usage = usage == null ? Usage.NONE : usage;
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(cause, "cause");
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
