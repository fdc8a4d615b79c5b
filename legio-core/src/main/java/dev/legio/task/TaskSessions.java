package dev.legio.task;

import dev.legio.agents.AgentDirectory;
import dev.legio.agents.AgentProfile;
import dev.legio.backend.BackendException;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionLostException;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TurnResult;
import dev.legio.backend.TurnStart;
import dev.legio.backend.http.ConversationStore;
import dev.legio.config.SessionSettings;
import dev.legio.errors.Quoted;
import dev.legio.session.LeaseGate;
import dev.legio.session.SessionStore;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageRecorder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Task sessions: sessions keyed by a caller's session key and an agent, for platforms that run
 * agents per campaign, customer or ticket. The one service behind {@code POST /api/v1/tasks} and
 * the Java API ({@code Legio.tasks()}).
 *
 * <p>Rules ({@link TaskSessionOpener} has those of which session a turn runs in):
 *
 * <ul>
 *   <li>A task names a {@link SessionKey session key} and a centurio ({@code
 *       castra/centuriones/NAME/prompt.md}: its prompt, model and back-end). There is one session
 *       per (key, agent); a task finds that session when it has not expired and runs its turn in it
 *       ({@code resumed}), else opens a new one. Another key, or another agent, never shares its
 *       conversation.
 *   <li>What a task session sees: its own conversation only. Not the praetorium (its turns are not
 *       logged there, no history is injected, its agent's long-term memory is not added), not the
 *       agent's own sessions. It opens with the {@code chat} role: read-only castra tools (edicta,
 *       acta) on HTTP back-ends, no Legio tools and restricted built-in tools on the Claude CLI.
 *       Its record is in {@code task_sessions}; each turn is a row of the usage ledger with the
 *       key, the agent and the task run id.
 *   <li>Resume window: a session can be resumed until its back-end's time to live ({@code
 *       [sessions.ttl_days]}) after its last turn, however long it was idle. Idle time ({@code
 *       session_idle_timeout_minutes}) only closes the live back-end process ({@link #closeIdle});
 *       the next task resumes the conversation by its back-end id (Claude CLI {@code --resume}, the
 *       stored conversation of an HTTP back-end), also after a restart. A back-end that cannot
 *       resume, a changed prompt file or another back-end kind starts a new session.
 *   <li>Expired sessions are deleted by {@link #deleteExpired} (the daily cleanup), with the
 *       conversations Legio stored for them (HTTP back-ends).
 *   <li>One turn at a time per (key, agent), in arrival order (a fair lock in this process, the
 *       session lease between processes); a task that cannot start within {@code lock_wait_seconds}
 *       gets {@link TaskBusyException}. Different keys run in parallel. This process keeps a slot
 *       only for the pairs in use ({@link TaskSlots}): {@link #closeIdle} retires the others.
 *   <li>The session lease ({@code task/AGENT/KEY}, taken through a {@link LeaseGate} as an agent's
 *       is) is renewed by the store's heartbeat while the turn runs, so a turn longer than {@code
 *       lease_ttl_seconds} keeps it. A release of the lease that fails (the database is down)
 *       changes nothing of how the turn ended: the turn's own failure is thrown (the release's
 *       suppressed in it), a completed task keeps its answer, and the lease frees itself when it
 *       runs out ({@link LeaseGate#releaseAfter}).
 *   <li>How a turn that reached the back-end ends, and what of it is kept (a back-end's failure, a
 *       lease lost meanwhile, an answer whose record the database failed to store), is {@link
 *       TaskTurnEndings}' rules.
 *   <li>Each task turn is told to the {@link TurnMeter} (the metrics) as the engine's turns are,
 *       under its agent's name: completed (with its usage), failed, busy or interrupted; once,
 *       before {@link #run} returns or throws.
 *   <li>At shutdown, {@link #interruptTurns} (a server calls it when its drain's grace has ended,
 *       as it does the engine's) refuses every task from then on and interrupts those running or
 *       waiting, by {@link TaskShutdown}'s rules.
 * </ul>
 */
public final class TaskSessions implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TaskSessions.class);

  /** The role task sessions open with (see the rules). */
  static final String ROLE = SessionSpec.CHAT_ROLE;

  private final AgentDirectory agents;
  private final TaskSessionStore records;
  private final UsageLedger ledger;
  private final SessionSettings settings;
  private final Clock clock;
  private final TaskSessionOpener opener;
  private final String holder = "legio-tasks-" + UUID.randomUUID();
  private final LeaseGate leases;
  private final TaskSlots slots = new TaskSlots();
  private final TaskTurnRecorder recorder;
  private final TaskTurnEndings endings;
  private final TaskShutdown shutdown = new TaskShutdown();
  private final ExpiredTaskSessions expired;

  /**
   * @param backend the default back-end
   * @param backendsByKind the back-end of each other kind an agent may name; null: only {@code
   *     backend}
   * @param leases where the session leases are taken (the agents' session store)
   * @param costs what prices the turns and writes their rows to the ledger (closed by its owner,
   *     after this)
   * @param conversations the conversations Legio keeps for the HTTP back-ends (those of expired
   *     sessions are deleted)
   */
  public TaskSessions(
      AgentDirectory agents,
      ModelBackend backend,
      Function<String, ModelBackend> backendsByKind,
      TaskSessionStore records,
      SessionStore leases,
      UsageLedger ledger,
      UsageRecorder costs,
      SessionSettings settings,
      Clock clock,
      ConversationStore conversations) {
    this.agents = Objects.requireNonNull(agents, "agents");
    this.records = Objects.requireNonNull(records, "records");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.leases =
        new LeaseGate(
            Objects.requireNonNull(leases, "leases"), holder, settings.leaseDuration(), this.clock);
    this.recorder = new TaskTurnRecorder(Objects.requireNonNull(costs, "costs"), this.clock);
    this.endings =
        new TaskTurnEndings(records, this.leases, holder, recorder, settings, this.clock);
    this.expired =
        new ExpiredTaskSessions(
            records, slots, Objects.requireNonNull(conversations, "conversations"), this.clock);
    this.opener =
        new TaskSessionOpener(
            Objects.requireNonNull(backend, "backend"), backendsByKind, records, settings);
  }

  /**
   * Runs one task: {@code text} as the next turn of the (key, agent) session.
   *
   * @param taskRunId the caller's id of the task run, recorded with the turn; may be null
   * @throws TaskRefusedException for a bad key, an unknown agent, an empty text or one no store can
   *     keep ({@link TaskText}), a bad task run id ({@link TaskRunId})
   * @throws TaskBusyException when the session stayed busy past {@code lock_wait_seconds}
   * @throws TaskFailedException when the back-end failed the turn
   * @throws TaskLeaseLostException when another node took the session over while the turn ran (with
   *     the answer, when it had come)
   * @throws TaskNotStoredException when the answer came but Legio's database failed to store it,
   *     while the lease is still this process's or that cannot be told ({@link TaskTurnEndings})
   */
  public TaskResult run(String sessionKey, String agent, String text, String taskRunId) {
    String key;
    try {
      key = SessionKey.require(sessionKey);
    } catch (IllegalArgumentException e) {
      throw new TaskRefusedException(e.getMessage());
    }
    AgentProfile profile = profileOf(agent);
    TaskText.require(text, agent);
    TaskRunId.require(taskRunId);
    shutdown.enter(agent);
    try {
      return runEntered(key, agent, profile, text, taskRunId);
    } catch (TaskBusyException | TaskFailedException e) {
      if (shutdown.closing()) {
        throw shutdown.interrupted(agent, e);
      }
      throw e;
    } finally {
      shutdown.leave();
    }
  }

  private TaskResult runEntered(
      String key, String agent, AgentProfile profile, String text, String taskRunId) {
    long start = System.nanoTime();
    TaskSlot slot;
    try {
      slot = slots.lock(key, agent, settings.lockWait().toNanos());
      if (slot == null) {
        recorder.measure(agent, dev.legio.session.TurnEnding.BUSY, start, null);
        throw busy(key, agent, "earlier tasks of this session are still running");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TaskBusyException("interrupted while waiting for the session of " + agent);
    }
    try {
      String lease = leaseName(key, agent);
      if (!leases.acquire(lease, settings.lockWait().minusNanos(System.nanoTime() - start))) {
        recorder.measure(agent, dev.legio.session.TurnEnding.BUSY, start, null);
        if (Thread.currentThread().isInterrupted()) {
          throw new TaskBusyException("interrupted while waiting for the session of " + agent);
        }
        throw busy(key, agent, "another Legio process is running a task of this session");
      }
      long turnStart = System.nanoTime();
      RuntimeException failure = null;
      try {
        if (shutdown.closing()) {
          // Stopping began while this task waited its turn (the turn before it, interrupted,
          // handed it the session before its own interrupt arrived): it does not start.
          throw new TaskBusyException(
              "Legio began stopping while the task of " + agent + " waited its turn");
        }
        return turn(slot, lease, key, profile, text, taskRunId);
      } catch (RuntimeException e) {
        failure = e;
        recorder.measure(
            agent,
            shutdown.closing()
                ? dev.legio.session.TurnEnding.INTERRUPTED
                : dev.legio.session.TurnEnding.FAILED,
            turnStart,
            null);
        throw e;
      } finally {
        leases.releaseAfter(lease, failure); // a release that fails never hides the turn's ending
      }
    } finally {
      slots.retireIfUnused(key, agent, slot); // a failed turn closed its live session
      slot.lock.unlock();
    }
  }

  /**
   * The name of the (key, agent) session's lease: {@code task/AGENT/KEY}. Agent and channel names
   * hold no '/', so it can never be an agent's or a channel's lease.
   */
  static String leaseName(String key, String agent) {
    return "task/" + agent + "/" + key;
  }

  private AgentProfile profileOf(String agent) {
    List<String> known = List.copyOf(agents.centurioNames());
    if (agent == null || agent.isBlank()) {
      throw new TaskRefusedException(
          "agent is missing: name a centurio (" + String.join(", ", known) + ")", known);
    }
    return agents
        .centurio(agent)
        .orElseThrow(
            () ->
                new TaskRefusedException(
                    "no agent named '"
                        + Quoted.of(agent)
                        + "' under castra/centuriones/. Known agents: "
                        + (known.isEmpty() ? "(none)" : String.join(", ", known))
                        + ".",
                    known));
  }

  private TaskBusyException busy(String key, String agent, String why) {
    return new TaskBusyException(
        "the session of "
            + agent
            + " for key '"
            + Quoted.of(key)
            + "' is busy ("
            + why
            + ", waited "
            + settings.lockWait().toSeconds()
            + " s); send the task again later");
  }

  private TaskResult turn(
      TaskSlot slot,
      String lease,
      String key,
      AgentProfile profile,
      String text,
      String taskRunId) {
    String agent = profile.name();
    ModelBackend model = opener.backendFor(profile);
    Instant now = clock.instant();
    long started = System.nanoTime();
    TaskTurnEndings.Turn turn =
        new TaskTurnEndings.Turn(lease, key, profile, model, text, taskRunId, started);
    boolean resumed = opener.prepare(slot, key, profile, model, now);
    TurnResult result;
    try {
      TurnStart turnStart = TurnStart.now();
      try {
        result = slot.live.send(text, event -> {}, turnStart);
      } catch (SessionLostException e) {
        log.warn("task session {} of {}: {}; starting a new one", key, agent, e.getMessage());
        TaskSessionOpener.closeLive(slot);
        opener.open(slot, key, profile, model, null, now);
        resumed = false;
        // the turn's time-out still counts from its first send
        result = slot.live.send(text, event -> {}, turnStart);
      }
    } catch (BackendException e) {
      throw endings.backendFailed(slot, turn, e);
    }
    return endings.answered(slot, turn, result, resumed);
  }

  /** From now on {@code turnMeter} (the metrics) hears how each task turn ended. */
  public void setTurnMeter(dev.legio.session.TurnMeter turnMeter) {
    recorder.setTurnMeter(turnMeter);
  }

  /**
   * The sessions of {@code sessionKey} the ledger has turns of (oldest first), each with its
   * totals, and whether it is the (key, agent) session a task would resume.
   *
   * @throws TaskRefusedException for a bad key
   */
  public List<TaskSessionSummary> sessionsOf(String sessionKey) {
    String key;
    try {
      key = SessionKey.require(sessionKey);
    } catch (IllegalArgumentException e) {
      throw new TaskRefusedException(e.getMessage());
    }
    return TaskSessionSummaries.of(key, records, ledger, clock.instant());
  }

  /**
   * Closes the live back-end sessions (processes, connections) of task sessions idle longer than
   * {@code session_idle_timeout_minutes}; their conversations stay resumable. Busy ones are left
   * alone. Slots left with no live session and nobody waiting are retired. Returns how many live
   * sessions were closed.
   */
  public int closeIdle() {
    Instant now = clock.instant();
    int[] closed = {0};
    slots.forEach(
        (key, agent, slot) -> {
          if (!slot.lock.tryLock()) {
            return;
          }
          try {
            if (slot.live != null
                && slot.record != null
                && Duration.between(slot.record.lastActiveAt(), now)
                        .compareTo(settings.idleTimeout())
                    > 0) {
              TaskSessionOpener.closeLive(slot);
              closed[0]++;
            }
            slots.retireIfUnused(key, agent, slot);
          } finally {
            slot.lock.unlock();
          }
        });
    return closed[0];
  }

  /**
   * Deletes the task sessions whose time to live ran out, with the conversations Legio stored for
   * them ({@link ExpiredTaskSessions}); returns how many sessions.
   */
  public int deleteExpired() {
    return expired.delete();
  }

  /**
   * Where the conversation of the (key, agent) session is, while it has not expired. A key {@link
   * SessionKey} refuses, or an agent that is no centurio, has no session: empty, and no store is
   * asked (a NUL in a key would reach the database before {@link #run} refused it).
   */
  public Optional<dev.legio.session.ConversationHome> conversationHome(
      String sessionKey, String agent) {
    try {
      SessionKey.require(sessionKey);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (agent == null || !agents.centurioNames().contains(agent)) {
      return Optional.empty();
    }
    return records.conversationHome(sessionKey, agent, clock.instant());
  }

  /** How many tasks wait for the (key, agent) session in this process (tests, status). */
  public int waiting(String sessionKey, String agent) {
    TaskSlot slot = slots.get(sessionKey, agent);
    return slot == null ? 0 : slot.lock.getQueueLength();
  }

  /** How many (key, agent) slots this process holds: those in use (tests). */
  int slotsHeld() {
    return slots.size();
  }

  /**
   * Refuses every task from now on and interrupts those running or waiting (see the class comment):
   * for a server whose shutdown grace has ended while task turns still run.
   */
  public void interruptTurns() {
    shutdown.interruptTurns();
  }

  /** True when no task turn runs or waits in this process (a server's drain waits for this). */
  public boolean idle() {
    return shutdown.idle();
  }

  /**
   * Closes the live back-end sessions this process holds (their conversations stay), waiting up to
   * {@code shutdown_grace_seconds} for turns in progress.
   */
  @Override
  public void close() {
    long deadline = System.nanoTime() + settings.shutdownGrace().toNanos();
    slots.forEach(
        (key, agent, slot) -> {
          if (Thread.currentThread().isInterrupted()) {
            return; // the wait was cut short: the back-ends close what is left
          }
          try {
            if (!slot.lock.tryLock(
                Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
              log.warn("a task turn was still running at shutdown; its back-end closes it");
              return;
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          try {
            TaskSessionOpener.closeLive(slot);
          } finally {
            slot.lock.unlock();
          }
        });
  }
}
