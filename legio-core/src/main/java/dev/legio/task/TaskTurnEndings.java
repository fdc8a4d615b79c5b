package dev.legio.task;

import dev.legio.agents.AgentProfile;
import dev.legio.backend.BackendException;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.TurnResult;
import dev.legio.backend.Usage;
import dev.legio.config.SessionSettings;
import dev.legio.session.CompletedTurn;
import dev.legio.session.FailedTurn;
import dev.legio.session.LeaseGate;
import dev.legio.session.LeaseLostException;
import dev.legio.session.TurnEnding;
import dev.legio.usage.LedgerEntry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a task turn that reached the back-end ends, and what of it is kept: the {@link TaskSessions}
 * turn's finishing path.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A back-end failure changes nothing stored but the usage ledger (a row with the failure's
 *       outcome and duration) and throws {@link TaskFailedException}; the live session is closed
 *       and read again next time.
 *   <li>The turn's record is saved only while the session lease is still this process's, checked in
 *       the write's transaction ({@link TaskSessionStore#saveWhileLeased}). A turn whose lease
 *       passed to another node meanwhile (this one paused, or lost the database, for longer than
 *       the lease) stores nothing, not even when the back-end then failed it: the ledger gets a row
 *       with outcome {@code lease_lost} (with the tokens of the answer, when there was one), and
 *       the caller gets {@link TaskLeaseLostException}: with the answer, when it came before the
 *       lease was found lost (its tokens are spent, so it is not thrown away), saying it is not in
 *       the session's history.
 *   <li>A turn whose answer came but whose record could not be saved (Legio's database failed,
 *       {@link TaskSessionStoreException}) asks whether its lease is still this process's ({@link
 *       LeaseGate#stillHeldAfter}), as an agent's turn that failed does: the write may have failed
 *       because this node lost the database for longer than the lease, and another node may have
 *       taken the session over meanwhile. When the lease was lost, the turn ends as one whose write
 *       found it lost (a {@code lease_lost} row with the answer's tokens, {@link
 *       TaskLeaseLostException} with the answer and the write's failure as its cause): the caller
 *       must hear that another node holds the session and may have run the task too, which a
 *       database failure alone would not tell. When the lease is still held, or the check cannot
 *       tell (the database is still down; its failure is added to the write's as suppressed), the
 *       record stays as it was, a failed row with the answer's tokens goes in the ledger, and
 *       {@link TaskNotStoredException} is thrown with the answer: its tokens are spent, so it is
 *       not thrown away. A check that cannot tell counts as held (the gate's rule) because what is
 *       known is that the database failed; a takeover is not, and telling of one would send the
 *       caller looking for another node's run that most often does not exist. Either way the caller
 *       gets the answer.
 *   <li>A turn whose record was saved is a completed row of the ledger (usage and cost) and is told
 *       to the turn meter as completed; its answer (blank: {@code (no answer)}) is the task's.
 * </ul>
 */
final class TaskTurnEndings {
  private static final Logger log = LoggerFactory.getLogger(TaskTurnEndings.class);

  /** One task turn: its session's lease, key, agent, back-end, text, run id and start. */
  record Turn(
      String lease,
      String key,
      AgentProfile profile,
      ModelBackend model,
      String text,
      String taskRunId,
      long started) {}

  private final TaskSessionStore records;
  private final LeaseGate leases;
  private final String holder;
  private final TaskTurnRecorder recorder;
  private final SessionSettings settings;
  private final Clock clock;

  /**
   * @param holder the holder the lease gate takes the leases under
   */
  TaskTurnEndings(
      TaskSessionStore records,
      LeaseGate leases,
      String holder,
      TaskTurnRecorder recorder,
      SessionSettings settings,
      Clock clock) {
    this.records = records;
    this.leases = leases;
    this.holder = holder;
    this.recorder = recorder;
    this.settings = settings;
    this.clock = clock;
  }

  /** The exception to throw for {@code turn}, which the back-end failed with {@code e}. */
  RuntimeException backendFailed(TaskSlot slot, Turn turn, BackendException e) {
    if (!leases.stillHeldAfter(turn.lease(), e)) {
      // Whatever failed first (the stored conversation another node continued, say), the
      // session was taken over while this turn ran: that is what the caller is told.
      return leaseLost(slot, turn, null, null, e);
    }
    endUnstored(slot, turn, null, FailedTurn.Cause.of(e));
    return new TaskFailedException(
        turn.profile().name()
            + " could not answer the task: "
            + e.getMessage()
            + " (nothing was stored)",
        e);
  }

  /**
   * Stores {@code turn}, whose back-end answered {@code result}, while its lease holds, and returns
   * the task's result.
   *
   * @param resumed whether the turn ran in a session it resumed
   * @throws TaskLeaseLostException when another node took the lease meanwhile, found by the write
   *     or, when the write failed, by the check after it (with the answer)
   * @throws TaskNotStoredException when Legio's database failed to store the record and the lease
   *     is still this process's, or the check cannot tell (with the answer)
   */
  TaskResult answered(TaskSlot slot, Turn turn, TurnResult result, boolean resumed) {
    AgentProfile profile = turn.profile();
    String agent = profile.name();
    String reply = result.text().isBlank() ? "(no answer)" : result.text();
    Instant done = clock.instant();
    slot.record =
        slot.record.afterTurn(
            result.usage(),
            slot.live.backendSessionId(),
            done,
            done.plus(settings.ttlFor(turn.model().kind())));
    try {
      records.saveWhileLeased(slot.record, turn.lease(), holder);
    } catch (LeaseLostException e) {
      throw leaseLost(slot, turn, result.usage(), reply, e);
    } catch (TaskSessionStoreException e) {
      if (!leases.stillHeldAfter(turn.lease(), e)) {
        // The write failed, and the lease had passed to another node meanwhile (this node lost the
        // database for longer than the lease): the caller is told of the takeover, as when the
        // write itself found the lease lost, since the other node may have run the task too.
        throw leaseLost(slot, turn, result.usage(), reply, e);
      }
      // The answer came, and only its storing failed: it is given all the same (tokens spent).
      endUnstored(slot, turn, result.usage(), FailedTurn.Cause.of(e));
      throw new TaskNotStoredException(turn.key(), agent, reply, turn.taskRunId(), e);
    }
    CompletedTurn completed =
        CompletedTurn.builder(agent, slot.record.sessionId())
            .fresh(!resumed)
            .sent(turn.text())
            .reply(reply)
            .model(profile.model())
            .usage(result.usage())
            .at(done)
            .backendKind(turn.model().kind())
            .context(result.context())
            .duration(Duration.ofNanos(System.nanoTime() - turn.started()))
            .build();
    LedgerEntry entry = recorder.completed(turn.key(), turn.taskRunId(), completed);
    recorder.measure(agent, TurnEnding.COMPLETED, turn.started(), completed);
    return new TaskResult(
        reply,
        slot.record.sessionId(),
        resumed,
        turn.taskRunId(),
        new TaskResult.TaskUsage(entry.tokens(), entry.cost().usd()));
  }

  /**
   * The exception for {@code turn}, whose session's lease was found passed to another node ({@code
   * cause}): nothing is stored, the turn ends as {@link #endUnstored} says with outcome {@code
   * lease_lost}, and the answer {@code reply}, when it came before (its tokens, {@code usage}, are
   * spent), is given with the exception.
   *
   * @param usage the answer's tokens; null when no answer came
   * @param reply the answer; null when none came
   */
  private TaskLeaseLostException leaseLost(
      TaskSlot slot, Turn turn, Usage usage, String reply, RuntimeException cause) {
    endUnstored(slot, turn, usage, FailedTurn.Cause.LEASE_LOST);
    String agent = turn.profile().name();
    log.warn(
        "task session {} of {}: another node took the lease; the turn stored nothing{}",
        turn.key(),
        agent,
        reply == null ? "" : ", its answer is given");
    return reply == null
        ? new TaskLeaseLostException(turn.key(), agent, settings.leaseDuration(), cause)
        : new TaskLeaseLostException(
            turn.key(), agent, settings.leaseDuration(), reply, turn.taskRunId(), cause);
  }

  /**
   * Ends {@code turn}, which reached the back-end but stored nothing: {@code slot}'s live session
   * is closed and its record dropped, so that both are read again next time (the stored record is
   * the truth, or another node's), and the turn is a row of the usage ledger that failed for {@code
   * cause}, with {@code usage} (the answer's tokens when one came; null when none is known). A slot
   * that had no record yet (its session never opened) writes no row.
   */
  private void endUnstored(TaskSlot slot, Turn turn, Usage usage, FailedTurn.Cause cause) {
    TaskSessionOpener.closeLive(slot);
    UUID sessionId = slot.record == null ? null : slot.record.sessionId();
    slot.record = null;
    if (sessionId != null) {
      recorder.failed(sessionId, turn, usage, cause);
    }
  }
}
