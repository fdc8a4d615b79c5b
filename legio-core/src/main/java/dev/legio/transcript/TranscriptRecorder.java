package dev.legio.transcript;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.Usage;
import dev.legio.session.CompletedTurn;
import dev.legio.session.TurnListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes every turn of the session engine to its session's transcript: the message sent to the
 * model as a {@code user} entry and its answer as an {@code assistant} entry, chained by {@code
 * parentUuid} as Claude Code chains them, with the model and the turn's token usage in the
 * assistant entry's {@code message.model} and {@code message.usage}, as Claude Code writes them (so
 * a listing can tell how full the context is). A session's transcript is named by its session id
 * and starts with an {@code agent-name} entry naming its owner, timed at the session's creation
 * ({@link CompletedTurn#sessionCreated()}), so that the session starts at the same instant before
 * its first turn is written (its record's creation) and after (its transcript's start). Each
 * compaction that ran before a turn ({@link CompletedTurn#compactions()}) is written first, as a
 * {@code summary} entry (its {@code <context_summary>} block and the number of messages it
 * replaces) in the same chain.
 *
 * <p>Each append chains to the transcript's tip as the store reads it under the transcript's lock
 * ({@link TranscriptStore#appendToChain}), never to a tip remembered from an earlier turn: another
 * node may have run the session's last turn, and a rewind may have tombstoned it.
 *
 * <p>A session whose transcript another process kept locked past the store's wait ({@link
 * TranscriptLockedException}: nothing was written) keeps its turns here, in order, and the
 * listener's thread goes on to the next turns instead of waiting for the lock. Rules, with their
 * numbers in {@link KeptTurnsPolicy}:
 *
 * <ul>
 *   <li>Kept turns are written without waiting for the session's next turn: on a thread of their
 *       own (never the listener's), 1 s after they were kept, then twice as long after each attempt
 *       that finds the lock still held, at most 1 min apart. A turn of the session that comes first
 *       writes them first, in the same append and chain.
 *   <li>One session's turns are written by one thread at a time, oldest first: a turn that comes
 *       while its session's turns are being written is kept behind them (the listener does not wait
 *       for that write) and written after them by the thread that wrote them, as soon as that write
 *       ends, so the order and the chain stay whole.
 *   <li>One warning names the lock file when a session's turns are first kept; one line says when
 *       they are written.
 *   <li>At most 1,000 turns are kept per session: past that the oldest are dropped, logged as an
 *       error naming the session and counting them.
 *   <li>{@link #close} (after the engine that tells this recorder of turns is closed) makes one
 *       last attempt for every session with kept turns, all at once, each waiting at most the
 *       store's lock wait, and logs as an error, naming the session and counting them, the turns
 *       still not written: they are lost. A turn told after that is written when the lock is free,
 *       else logged as lost at once: nothing is kept once no attempt will follow.
 *   <li>Any other failure to write is thrown, as before, and its turns are not kept (it would fail
 *       again: a full transcript, an entry too large); kept turns that fail so when written again
 *       are dropped, logged as an error.
 * </ul>
 */
public final class TranscriptRecorder implements TurnListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TranscriptRecorder.class);

  /**
   * How long {@link #close} waits at most for its attempts and the retrier's to end: each waits at
   * most the store's lock wait (5 s), so this bound only holds against a file system that hangs.
   */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  private final TranscriptStore store;
  private final KeptTurnsPolicy policy;

  /**
   * Guards {@link #kept}, {@link #writing}, {@link #retrier}, {@link #closed} and {@link
   * #lossesLogged}.
   */
  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled when the recorder closes, to wake the retrier. */
  private final Condition closing = lock.newCondition();

  /** Signalled when a write ends. */
  private final Condition written = lock.newCondition();

  /** Per session, turns not yet written because its transcript was locked, oldest first. */
  private final Map<String, Kept> kept = new LinkedHashMap<>();

  /** The sessions whose turns a thread is writing now. */
  private final Set<String> writing = new HashSet<>();

  /** The thread that writes kept turns again; null when none runs. */
  private Thread retrier;

  private boolean closed;

  /** True once {@link #close} has logged the turns it could not write: none is kept after it. */
  private boolean lossesLogged;

  /** A session's kept turns, and why the last write of them failed. */
  private record Kept(List<CompletedTurn> turns, String why) {}

  /** Turns of one session a thread has taken to write: {@code wereKept} of them were kept. */
  private record Claim(String sessionId, List<CompletedTurn> turns, int wereKept) {}

  /** A recorder that keeps turns by {@link KeptTurnsPolicy#DEFAULT}. */
  public TranscriptRecorder(TranscriptStore store) {
    this(store, KeptTurnsPolicy.DEFAULT);
  }

  public TranscriptRecorder(TranscriptStore store, KeptTurnsPolicy policy) {
    this.store = java.util.Objects.requireNonNull(store, "store");
    this.policy = java.util.Objects.requireNonNull(policy, "policy");
  }

  @Override
  public void turnCompleted(CompletedTurn turn) {
    turnsCompleted(List.of(turn));
  }

  /**
   * Turns told together are written with one append per session (one lock, one write), each
   * session's turns in the order they came, after its kept ones.
   */
  @Override
  public void turnsCompleted(List<CompletedTurn> turns) {
    Map<String, List<CompletedTurn>> bySession = new LinkedHashMap<>();
    for (CompletedTurn turn : turns) {
      bySession.computeIfAbsent(turn.sessionId().toString(), k -> new ArrayList<>()).add(turn);
    }
    // A session whose write fails does not keep the others' turns from their transcripts.
    RuntimeException failure = null;
    for (Map.Entry<String, List<CompletedTurn>> session : bySession.entrySet()) {
      Claim claim = claim(session.getKey(), session.getValue());
      if (claim == null) {
        continue; // kept behind the session's turns being written now
      }
      try {
        writeWithThoseBehind(claim);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Takes {@code turns}, after the session's kept ones, to write; or, while another thread writes
   * the session's turns, keeps them behind those and returns null.
   */
  private Claim claim(String sessionId, List<CompletedTurn> turns) {
    lock.lock();
    try {
      Kept before = kept.remove(sessionId);
      List<CompletedTurn> all = new ArrayList<>(before == null ? List.of() : before.turns());
      all.addAll(turns);
      if (writing.contains(sessionId)) {
        keep(
            sessionId,
            all,
            before != null ? before.why() : "the session's earlier turns were being written");
        return null;
      }
      writing.add(sessionId);
      return new Claim(sessionId, all, all.size() - turns.size());
    } finally {
      lock.unlock();
    }
  }

  /** Takes the session's kept turns to write again; null when none wait or a thread writes it. */
  private Claim claimKept(String sessionId) {
    lock.lock();
    try {
      if (writing.contains(sessionId) || !kept.containsKey(sessionId)) {
        return null;
      }
      List<CompletedTurn> turns = kept.remove(sessionId).turns();
      writing.add(sessionId);
      return new Claim(sessionId, turns, turns.size());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends the claimed turns to the session's transcript; false when another process held its lock
   * (the turns are kept). Any other failure is thrown, the turns not kept.
   */
  private boolean write(Claim claim) {
    List<CompletedTurn> turns = claim.turns();
    try {
      store.appendToChain(claim.sessionId(), (exists, tip) -> entries(turns, exists, tip));
    } catch (TranscriptLockedException e) {
      done(claim, e);
      return false;
    } catch (RuntimeException e) {
      done(claim, null);
      throw e;
    }
    done(claim, null);
    if (claim.wereKept() > 0) {
      log.info(
          "{}: the {} turns kept while another process held the transcript's lock are"
              + " written to it now",
          turns.get(0).owner(),
          claim.wereKept());
    }
    return true;
  }

  /** Ends a write; {@code locked}: it found the lock held, and its turns are kept. */
  private void done(Claim claim, TranscriptLockedException locked) {
    lock.lock();
    try {
      writing.remove(claim.sessionId());
      if (locked != null) {
        Kept behind = kept.remove(claim.sessionId()); // told while this write ran
        List<CompletedTurn> turns = new ArrayList<>(claim.turns());
        if (behind != null) {
          turns.addAll(behind.turns());
        }
        if (lossesLogged) {
          log.error(
              "{}: {} turns of session {} were not written to its transcript and are lost: another"
                  + " process held its lock after Legio stopped recording transcripts ({})",
              turns.get(0).owner(),
              turns.size(),
              claim.sessionId(),
              locked.getMessage());
          written.signalAll();
          return;
        }
        keep(claim.sessionId(), turns, locked.getMessage());
        if (claim.wereKept() == 0) {
          log.warn(
              "{}: {}; the turn is kept, to be written once the lock is let go (tried again after"
                  + " {}, then less often) or with the session's next turn (lost if Legio stops"
                  + " while the lock is held)",
              turns.get(0).owner(),
              locked.getMessage(),
              policy.firstRetry());
        }
      }
      written.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Keeps {@code turns} (oldest first) for the session, dropping the oldest past the limit. */
  private void keep(String sessionId, List<CompletedTurn> turns, String why) {
    int dropped = Math.max(0, turns.size() - policy.maxKept());
    List<CompletedTurn> keeping = new ArrayList<>(turns.subList(dropped, turns.size()));
    if (dropped > 0) {
      log.error(
          "{}: {} turns were dropped from the transcript of session {} unwritten: more than {}"
              + " waited while another process held its lock ({})",
          turns.get(0).owner(),
          dropped,
          sessionId,
          policy.maxKept(),
          why);
    }
    kept.put(sessionId, new Kept(keeping, why));
    if (retrier == null && !closed) {
      retrier = Thread.ofVirtual().name("legio-transcript-retry").start(this::retryKept);
    }
  }

  /** The retrier: writes the kept turns again, by the policy's back-off, until none are kept. */
  private void retryKept() {
    Duration wait = policy.firstRetry();
    while (true) {
      List<String> due;
      lock.lock();
      try {
        long nanos = wait.toNanos();
        while (!closed && nanos > 0) {
          nanos = closing.awaitNanos(nanos);
        }
        if (closed || kept.isEmpty()) {
          retrier = null;
          return;
        }
        due = new ArrayList<>(kept.keySet());
      } catch (InterruptedException e) {
        retrier = null;
        return;
      } finally {
        lock.unlock();
      }
      boolean stillLocked = false;
      for (String sessionId : due) {
        if (isClosed()) {
          break; // close makes the last attempt
        }
        stillLocked |= !writeKept(sessionId);
      }
      wait = stillLocked ? policy.after(wait) : policy.firstRetry();
    }
  }

  /** Writes the session's kept turns, if any; false when the lock was still held. */
  private boolean writeKept(String sessionId) {
    Claim claim = claimKept(sessionId);
    if (claim == null) {
      return true;
    }
    try {
      return writeWithThoseBehind(claim);
    } catch (RuntimeException e) {
      log.error(
          "{}: {} turns kept for session {} were dropped unwritten: writing them to its"
              + " transcript failed ({})",
          claim.turns().get(0).owner(),
          claim.turns().size(),
          sessionId,
          e.getMessage(),
          e);
      return true;
    }
  }

  /**
   * Writes {@code claim}, then the session's turns told while it was written (kept behind it),
   * until none is left: the lock was just had, so they are not left to the retrier's next round,
   * or, after {@link #close}, to nobody. False when the lock was held (the turns are kept).
   */
  private boolean writeWithThoseBehind(Claim claim) {
    for (Claim next = claim; next != null; next = claimKept(claim.sessionId())) {
      if (!write(next)) {
        return false;
      }
    }
    return true;
  }

  private boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Makes one last attempt to write every session's kept turns, all at once (each waits at most the
   * store's lock wait), and logs those it could not write, naming the session and counting them.
   * Call it after the engine that tells this recorder of turns is closed.
   */
  @Override
  public void close() {
    List<String> sessions;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      closing.signalAll();
      sessions = new ArrayList<>(kept.keySet());
    } finally {
      lock.unlock();
    }
    List<Thread> attempts = new ArrayList<>();
    for (String sessionId : sessions) {
      attempts.add(
          Thread.ofVirtual().name("legio-transcript-close").start(() -> writeKept(sessionId)));
    }
    long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
    try {
      for (Thread attempt : attempts) {
        attempt.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
      }
      awaitWrites(deadline);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    lock.lock();
    try {
      for (Map.Entry<String, Kept> left : kept.entrySet()) {
        List<CompletedTurn> turns = left.getValue().turns();
        log.error(
            "{}: {} turns of session {} were not written to its transcript and are lost: another"
                + " process still held its lock when Legio stopped ({})",
            turns.get(0).owner(),
            turns.size(),
            left.getKey(),
            left.getValue().why());
      }
      kept.clear();
      lossesLogged = true;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until no thread writes turns (the retrier's attempt in flight), or the deadline. */
  private void awaitWrites(long deadline) throws InterruptedException {
    lock.lock();
    try {
      long nanos = deadline - System.nanoTime();
      while (!writing.isEmpty() && nanos > 0) {
        nanos = written.awaitNanos(nanos);
      }
    } finally {
      lock.unlock();
    }
  }

  /** How many turns of {@code sessionId} wait for its transcript's lock. */
  int kept(String sessionId) {
    lock.lock();
    try {
      Kept waiting = kept.get(sessionId);
      return waiting == null ? 0 : waiting.turns().size();
    } finally {
      lock.unlock();
    }
  }

  /** One session's turns as entries chained after {@code tip}. */
  private static List<NewEntry> entries(List<CompletedTurn> turns, boolean exists, UUID tip) {
    List<NewEntry> entries = new ArrayList<>();
    if (!exists) {
      entries.add(NewEntry.agentName(turns.get(0).owner(), turns.get(0).sessionCreated()));
    }
    UUID parent = tip;
    for (CompletedTurn turn : turns) {
      for (BackendEvent.CompactionEnded compaction : turn.compactions()) {
        NewEntry.Summary summary =
            NewEntry.summary(parent, compaction.summary(), compaction.messagesCompacted());
        entries.add(summary);
        parent = summary.uuid();
      }
      NewEntry.Message request = NewEntry.user(parent, turn.sent());
      NewEntry.Message reply =
          NewEntry.assistant(request.uuid(), turn.reply(), turn.model(), usage(turn.usage()));
      entries.add(request);
      entries.add(reply);
      parent = reply.uuid();
    }
    return entries;
  }

  /** The turn's usage for the transcript; none when the back-end reported nothing at all. */
  private static Usage usage(Usage usage) {
    return usage == null || usage.equals(Usage.NONE) ? null : usage;
  }
}
