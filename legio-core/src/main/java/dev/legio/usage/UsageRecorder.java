package dev.legio.usage;

import dev.legio.pricing.PriceTable;
import dev.legio.pricing.Tokens;
import dev.legio.session.CompletedTurn;
import dev.legio.session.FailedTurn;
import dev.legio.session.TurnListener;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Appends one {@link LedgerEntry} to the {@link UsageLedger} for each turn a session completed,
 * costed by the {@link PriceTable} and {@link TurnCost#choose}.
 *
 * <p>A completed turn is a row with the outcome {@link TurnOutcome#OK}; a failed one ({@link
 * #turnFailed}) a row with its outcome ({@code error}, {@code timeout}, {@code lease_lost}) and no
 * tokens unless the back-end reported some. A row has a duration when the engine reports one.
 *
 * <p>Rows are written at once, on the turn listener's thread, while the database takes them ({@link
 * RetryingUsageWriter}: its rules, the back-off and the limit, are in its comment). A row the
 * ledger cannot write at once (the database locked or out of reach for a moment) is kept and
 * written again later on a thread of its own, so a short fault loses no turn and holds the listener
 * for one failed write at most; while rows are kept, the next turns' rows are kept behind them and
 * the listener does not wait at all. A row given up at last (dropped past the limit, refused by the
 * database, still unwritten at {@link #close}) is not lost silently: it is logged and kept count of
 * ({@link #unrecorded()}), so that a command that ran the turn can say that its usage went
 * unrecorded and exit with a failure. Close the recorder after the engine that tells it of turns,
 * before the ledger's store.
 */
public final class UsageRecorder implements TurnListener, AutoCloseable {
  private final PriceTable prices;
  private final AtomicReference<Unrecorded> unrecorded = new AtomicReference<>();
  private final RetryingUsageWriter writer;

  /**
   * The turns whose usage the ledger could not record: how many, whose (the first turn's owner) and
   * why (the last failure's message).
   */
  public record Unrecorded(int turns, String owner, String reason) {}

  public UsageRecorder(UsageLedger ledger, PriceTable prices) {
    this(ledger, prices, RetryingUsageWriter.Backoff.DEFAULT);
  }

  /**
   * @param backoff when rows a failed write left are written again, and how many are kept
   */
  public UsageRecorder(UsageLedger ledger, PriceTable prices, RetryingUsageWriter.Backoff backoff) {
    Objects.requireNonNull(ledger, "ledger");
    this.prices = Objects.requireNonNull(prices, "prices");
    this.writer = new RetryingUsageWriter(ledger, backoff, this::countUnrecorded);
  }

  @Override
  public void turnCompleted(CompletedTurn turn) {
    record(List.of(entryOf(turn)));
  }

  /** Turns told together are recorded together: one transaction, one commit. */
  @Override
  public void turnsCompleted(List<CompletedTurn> turns) {
    record(turns.stream().map(this::entryOf).toList());
  }

  @Override
  public void turnFailed(FailedTurn turn) {
    record(List.of(entryOf(turn)));
  }

  /** The turns whose usage could not be recorded so far, if any. */
  public Optional<Unrecorded> unrecorded() {
    return Optional.ofNullable(unrecorded.get());
  }

  private void record(List<LedgerEntry> entries) {
    writer.write(entries);
  }

  /** Counts rows given up: their turns are unrecorded. */
  private void countUnrecorded(int count, LedgerEntry first, String why) {
    unrecorded.accumulateAndGet(
        new Unrecorded(count, first.owner(), why),
        (before, now) ->
            before == null
                ? now
                : new Unrecorded(before.turns() + now.turns(), before.owner(), now.reason()));
  }

  /**
   * Writes one turn's row as the recorder writes its listener's: at once, or kept behind rows a
   * failed write left, and again later when that fails ({@link RetryingUsageWriter}); never throws
   * for the ledger (task turns, {@code task.TaskTurnRecorder}).
   */
  public void record(LedgerEntry entry) {
    writer.write(List.of(Objects.requireNonNull(entry, "entry")));
  }

  /** How many turns' rows wait to be written again after a failed write. */
  public int pending() {
    return writer.pending();
  }

  /**
   * Writes the rows still kept after failed writes, once more; those it cannot write are logged and
   * counted in {@link #unrecorded()}.
   */
  @Override
  public void close() {
    writer.close();
  }

  /** The ledger row of a failed {@code turn}. */
  public LedgerEntry entryOf(FailedTurn turn) {
    Tokens tokens = BilledTokens.of(turn.backendKind(), turn.usage());
    return new LedgerEntry(
        turn.at(),
        turn.sessionId(),
        turn.owner(),
        null,
        turn.backendKind(),
        turn.model(),
        tokens,
        cost(turn.backendKind(), turn.model(), tokens, turn.usage().reportedCostUsd()),
        turn.duration(),
        outcomeOf(turn.cause()));
  }

  /** The ledger's outcome for a turn that failed for {@code cause}. */
  public static TurnOutcome outcomeOf(FailedTurn.Cause cause) {
    return switch (cause) {
      case ERROR -> TurnOutcome.ERROR;
      case TIMEOUT -> TurnOutcome.TIMEOUT;
      case LEASE_LOST -> TurnOutcome.LEASE_LOST;
    };
  }

  private TurnCost cost(String kind, String model, Tokens tokens, Double reported) {
    return TurnCost.choose(
        kind,
        prices.costOf(kind, model, tokens),
        reported == null ? null : BigDecimal.valueOf(reported));
  }

  /** The ledger row of {@code turn}. */
  public LedgerEntry entryOf(CompletedTurn turn) {
    Tokens tokens = BilledTokens.of(turn.backendKind(), turn.usage());
    TurnCost cost = cost(turn.backendKind(), turn.model(), tokens, turn.usage().reportedCostUsd());
    return new LedgerEntry(
        turn.at(),
        turn.sessionId(),
        turn.owner(),
        null,
        turn.backendKind(),
        turn.model(),
        tokens,
        cost,
        turn.duration(),
        TurnOutcome.OK);
  }
}
