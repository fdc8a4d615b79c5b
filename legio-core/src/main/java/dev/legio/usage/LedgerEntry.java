package dev.legio.usage;

import dev.legio.pricing.Tokens;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One turn in the usage ledger.
 *
 * @param at when the turn ended
 * @param sessionId Legio's id of the session
 * @param owner the agent or channel whose session it was (for a task session, its owner name)
 * @param task the task the turn belongs to; null for agent and channel sessions
 * @param backend the kind of back-end that answered ({@code claude-cli}, {@code anthropic}, ...)
 * @param model the model asked for; null for the back-end's default
 * @param tokens the tokens billed ({@link BilledTokens#of})
 * @param cost what the turn cost, and where that figure came from
 * @param duration how long the turn took; null when unknown
 * @param outcome how the turn ended
 * @param turnId the id of the turn this row measures, made once with the row: the ledger keeps one
 *     row per id, so a row written again (a retry after a commit whose answer was lost) is counted
 *     once; null for a row written before rows had ids
 */
public record LedgerEntry(
    Instant at,
    UUID sessionId,
    String owner,
    TaskRef task,
    String backend,
    String model,
    Tokens tokens,
    TurnCost cost,
    Duration duration,
    TurnOutcome outcome,
    UUID turnId) {
  public LedgerEntry {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(tokens, "tokens");
    Objects.requireNonNull(cost, "cost");
    Objects.requireNonNull(outcome, "outcome");
  }

  /** A new row, of a turn given a new id. */
  public LedgerEntry(
      Instant at,
      UUID sessionId,
      String owner,
      TaskRef task,
      String backend,
      String model,
      Tokens tokens,
      TurnCost cost,
      Duration duration,
      TurnOutcome outcome) {
    this(
        at,
        sessionId,
        owner,
        task,
        backend,
        model,
        tokens,
        cost,
        duration,
        outcome,
        UUID.randomUUID());
  }
}
