package dev.legio.task;

import dev.legio.agents.AgentProfile;
import dev.legio.backend.Usage;
import dev.legio.session.CompletedTurn;
import dev.legio.session.EndedTurn;
import dev.legio.session.FailedTurn;
import dev.legio.session.Owner;
import dev.legio.session.TurnEnding;
import dev.legio.session.TurnMeter;
import dev.legio.usage.LedgerEntry;
import dev.legio.usage.TaskRef;
import dev.legio.usage.UsageRecorder;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a task session's turns are counted: the usage ledger and the turn meter.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every turn that reached the back-end is a row of the usage ledger with the task's session
 *       key, agent and task run id: a completed one with its usage and cost, a failed one with its
 *       outcome and duration and no tokens, one whose lease passed to another node before it could
 *       store its answer with outcome {@code lease_lost} and the tokens its answer cost.
 *   <li>Every task turn is told to the {@link TurnMeter} (the metrics) once, under its agent's
 *       name, as the engine's turns are: completed (with its usage), failed or busy.
 *   <li>Neither may change the turn: a meter failure is logged, and the task's answer stands. A row
 *       the ledger cannot write at once is kept and written again by the {@link UsageRecorder}
 *       ({@link dev.legio.usage.RetryingUsageWriter}'s rules), as an agent's turn's row is.
 * </ul>
 */
final class TaskTurnRecorder {
  private static final Logger log = LoggerFactory.getLogger(TaskTurnRecorder.class);

  private final UsageRecorder costs;
  private final Clock clock;
  private volatile TurnMeter meter = TurnMeter.NONE;

  /**
   * @param costs prices the turns and writes their rows (its owner closes it, after this)
   */
  TaskTurnRecorder(UsageRecorder costs, Clock clock) {
    this.costs = costs;
    this.clock = clock;
  }

  void setTurnMeter(TurnMeter turnMeter) {
    this.meter = Objects.requireNonNull(turnMeter, "turnMeter");
  }

  /** Tells the meter how a turn of {@code agent} that started at {@code startedNanos} ended. */
  void measure(String agent, TurnEnding ending, long startedNanos, CompletedTurn completed) {
    TurnMeter m = meter;
    if (m == TurnMeter.NONE) {
      return;
    }
    try {
      m.turnEnded(
          new EndedTurn(
              Owner.agent(agent),
              ending,
              Duration.ofNanos(System.nanoTime() - startedNanos),
              completed));
    } catch (RuntimeException e) {
      log.warn("task session of {}: the turn meter failed (the turn is unchanged)", agent, e);
    }
  }

  /** Puts a completed turn in the ledger; returns its entry (usage and cost). */
  LedgerEntry completed(String key, String taskRunId, CompletedTurn turn) {
    LedgerEntry entry = withTask(costs.entryOf(turn), new TaskRef(key, turn.owner(), taskRunId));
    costs.record(entry);
    return entry;
  }

  /**
   * Puts a task turn that reached the back-end but stored nothing in the usage ledger, failed for
   * {@code cause} (its outcome: an error, a time-out, or {@code lease_lost} when its lease passed
   * to another node), with its duration, so that every turn of a task session is there, as every
   * turn of an agent's is: {@code usage} is the tokens of the answer when one came before the turn
   * failed (they were spent), null when none is known (the back-end failed it).
   */
  void failed(UUID sessionId, TaskTurnEndings.Turn turn, Usage usage, FailedTurn.Cause cause) {
    AgentProfile profile = turn.profile();
    costs.record(
        withTask(
            costs.entryOf(
                FailedTurn.builder(profile.name(), sessionId)
                    .model(profile.model())
                    .backendKind(turn.model().kind())
                    .usage(usage)
                    .at(clock.instant())
                    .duration(Duration.ofNanos(System.nanoTime() - turn.started()))
                    .cause(cause)
                    .build()),
            new TaskRef(turn.key(), profile.name(), turn.taskRunId())));
  }

  private static LedgerEntry withTask(LedgerEntry e, TaskRef task) {
    return new LedgerEntry(
        e.at(),
        e.sessionId(),
        e.owner(),
        task,
        e.backend(),
        e.model(),
        e.tokens(),
        e.cost(),
        e.duration(),
        e.outcome());
  }
}
