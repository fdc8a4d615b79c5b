package dev.legio.session;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.ContextUse;
import dev.legio.backend.Usage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
  public CompletedTurn {
    compactions = compactions == null ? List.of() : List.copyOf(compactions);
  }

  /** A turn of a session without a record's creation time. */
  public CompletedTurn(
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
      Duration duration) {
    this(
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
        null);
  }

  /** A turn whose duration was not measured. */
  public CompletedTurn(
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
      ContextUse context) {
    this(
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
        null);
  }
}
