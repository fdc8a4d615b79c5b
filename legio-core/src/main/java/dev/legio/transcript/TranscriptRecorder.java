package dev.legio.transcript;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.Usage;
import dev.legio.session.CompletedTurn;
import dev.legio.session.TurnListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
 * TranscriptLockedException}: nothing was written) keeps its turns here, in order, and they are
 * written first with that session's next turn, in the same append and chain, so none is lost while
 * the listener's thread goes on to the next turns instead of waiting for the lock. One warning
 * names the lock file when a session's turns are first kept; one line says when they are written.
 * At most {@link #MAX_KEPT} turns are kept per session: past that the oldest are dropped, logged as
 * an error. Turns kept when the process stops are lost (the warning said so). Any other failure to
 * write is thrown, as before, and its turns are not kept (it would fail again: a full transcript,
 * an entry too large).
 */
public final class TranscriptRecorder implements TurnListener {
  private static final Logger log = LoggerFactory.getLogger(TranscriptRecorder.class);

  /** The most turns of one session kept while its transcript is locked. */
  static final int MAX_KEPT = 1_000;

  private final TranscriptStore store;

  /** Per session, turns whose append found the transcript locked (guarded by this). */
  private final Map<String, List<CompletedTurn>> kept = new HashMap<>();

  public TranscriptRecorder(TranscriptStore store) {
    this.store = store;
  }

  @Override
  public void turnCompleted(CompletedTurn turn) {
    turnsCompleted(List.of(turn));
  }

  /**
   * Turns told together are written with one append per session (one lock, one write), each
   * session's turns in the order they came.
   */
  @Override
  public synchronized void turnsCompleted(List<CompletedTurn> turns) {
    Map<String, List<CompletedTurn>> bySession = new LinkedHashMap<>();
    for (CompletedTurn turn : turns) {
      bySession
          .computeIfAbsent(
              turn.sessionId().toString(), k -> new ArrayList<>(kept.getOrDefault(k, List.of())))
          .add(turn);
    }
    // A session whose write fails does not keep the others' turns from their transcripts.
    RuntimeException failure = null;
    for (Map.Entry<String, List<CompletedTurn>> session : bySession.entrySet()) {
      String sessionId = session.getKey();
      List<CompletedTurn> toWrite = session.getValue();
      try {
        store.appendToChain(sessionId, (exists, tip) -> entries(toWrite, exists, tip));
        List<CompletedTurn> before = kept.remove(sessionId);
        if (before != null) {
          log.info(
              "{}: the {} turns kept while another process held the transcript's lock are"
                  + " written to it now",
              toWrite.get(0).owner(),
              before.size());
        }
      } catch (TranscriptLockedException e) {
        keep(sessionId, toWrite, e);
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

  /** Keeps {@code turns} (the session's kept ones first) for its next append. Holds this. */
  private void keep(String sessionId, List<CompletedTurn> turns, TranscriptLockedException why) {
    boolean first = !kept.containsKey(sessionId);
    List<CompletedTurn> keeping = new ArrayList<>(turns);
    int dropped = Math.max(0, keeping.size() - MAX_KEPT);
    if (dropped > 0) {
      keeping.subList(0, dropped).clear();
      log.error(
          "{}: {} turns were dropped from the transcript of session {} unwritten: more than {}"
              + " waited while another process held its lock ({})",
          turns.get(0).owner(),
          dropped,
          sessionId,
          MAX_KEPT,
          why.getMessage());
    }
    kept.put(sessionId, keeping);
    if (first) {
      log.warn(
          "{}: {}; the turn is kept, to be written with the session's next turn (lost if Legio"
              + " stops first)",
          turns.get(0).owner(),
          why.getMessage());
    }
  }

  /** How many turns of {@code sessionId} wait for its transcript's lock. */
  synchronized int kept(String sessionId) {
    return kept.getOrDefault(sessionId, List.of()).size();
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
