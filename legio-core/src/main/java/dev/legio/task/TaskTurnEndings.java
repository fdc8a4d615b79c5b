package dev.legio.task;

import dev.legio.agents.AgentProfile;
import dev.legio.backend.BackendException;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.TurnResult;
import dev.legio.config.SessionSettings;
import dev.legio.session.CompletedTurn;
import dev.legio.session.LeaseGate;
import dev.legio.session.LeaseLostException;
import dev.legio.session.TurnEnding;
import dev.legio.usage.LedgerEntry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 *       {@link TaskSessionStoreException}) keeps the record as it was, puts a failed row with the
 *       answer's tokens in the ledger, and throws {@link TaskNotStoredException} with the answer:
 *       its tokens are spent, so it is not thrown away.
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
    String agent = turn.profile().name();
    TaskSessionOpener.closeLive(slot);
    UUID sessionId = slot.record == null ? null : slot.record.sessionId();
    slot.record = null;
    if (!leases.stillHeldAfter(turn.lease(), e)) {
      // Whatever failed first (the stored conversation another node continued, say), the
      // session was taken over while this turn ran: that is what the caller is told.
      if (sessionId != null) {
        recorder.leaseLost(
            sessionId,
            turn.key(),
            turn.profile(),
            turn.model(),
            turn.taskRunId(),
            turn.started(),
            null);
      }
      return leaseLost(turn.key(), agent, e);
    }
    if (sessionId != null) {
      recorder.failed(
          sessionId,
          turn.key(),
          turn.profile(),
          turn.model(),
          turn.taskRunId(),
          turn.started(),
          null,
          e);
    }
    return new TaskFailedException(
        agent + " could not answer the task: " + e.getMessage() + " (nothing was stored)", e);
  }

  /**
   * Stores {@code turn}, whose back-end answered {@code result}, while its lease holds, and returns
   * the task's result.
   *
   * @param resumed whether the turn ran in a session it resumed
   * @throws TaskLeaseLostException when another node took the lease meanwhile (with the answer)
   * @throws TaskNotStoredException when Legio's database failed to store the record
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
      UUID sessionId = slot.record.sessionId();
      TaskSessionOpener.closeLive(slot); // the session is the other node's: read again next time
      slot.record = null;
      recorder.leaseLost(
          sessionId,
          turn.key(),
          profile,
          turn.model(),
          turn.taskRunId(),
          turn.started(),
          result.usage());
      // The answer came before the lease was found lost: its tokens are spent, so it is given.
      log.warn(
          "task session {} of {}: another node took the lease; the turn stored nothing, its answer"
              + " is given",
          turn.key(),
          agent);
      throw new TaskLeaseLostException(
          turn.key(), agent, settings.leaseDuration(), reply, turn.taskRunId(), e);
    } catch (TaskSessionStoreException e) {
      // The answer came, and only its storing failed: it is given all the same (tokens spent).
      UUID sessionId = slot.record.sessionId();
      TaskSessionOpener.closeLive(slot); // read again next time: the stored record is the truth
      slot.record = null;
      recorder.failed(
          sessionId,
          turn.key(),
          profile,
          turn.model(),
          turn.taskRunId(),
          turn.started(),
          result.usage(),
          e);
      throw new TaskNotStoredException(turn.key(), agent, reply, turn.taskRunId(), e);
    }
    CompletedTurn completed =
        new CompletedTurn(
            agent,
            slot.record.sessionId(),
            !resumed,
            turn.text(),
            reply,
            profile.model(),
            result.usage(),
            done,
            turn.model().kind(),
            0,
            List.of(),
            result.context(),
            Duration.ofNanos(System.nanoTime() - turn.started()));
    LedgerEntry entry = recorder.completed(turn.key(), turn.taskRunId(), completed);
    recorder.measure(agent, TurnEnding.COMPLETED, turn.started(), completed);
    return new TaskResult(
        reply,
        slot.record.sessionId(),
        resumed,
        turn.taskRunId(),
        new TaskResult.TaskUsage(entry.tokens(), entry.cost().usd()));
  }

  private TaskLeaseLostException leaseLost(String key, String agent, RuntimeException cause) {
    log.warn(
        "task session {} of {}: another node took the lease; the turn stored nothing", key, agent);
    return new TaskLeaseLostException(key, agent, settings.leaseDuration(), cause);
  }
}
