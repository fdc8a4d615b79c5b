package dev.legio.transcript;

import dev.legio.backend.BackendEvent;
import dev.legio.backend.Usage;
import dev.legio.session.CompletedTurn;
import dev.legio.session.TurnListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes every turn of the session engine to its session's transcript: the message sent to the
 * model as a {@code user} entry and its answer as an {@code assistant} entry, chained by {@code
 * parentUuid} as Claude Code chains them, with the model and the turn's token usage in the
 * assistant entry's {@code message.model} and {@code message.usage}, as Claude Code writes them (so
 * a listing can tell how full the context is). A session's transcript is named by its session id
 * and starts with an {@code agent-name} entry naming its owner. Each compaction that ran before a
 * turn ({@link CompletedTurn#compactions()}) is written first, as a {@code summary} entry (its
 * {@code <context_summary>} block and the number of messages it replaces) in the same chain.
 *
 * <p>Each append chains to the transcript's tip as the store reads it under the transcript's lock
 * ({@link TranscriptStore#appendToChain}), never to a tip remembered from an earlier turn: another
 * node may have run the session's last turn, and a rewind may have tombstoned it.
 */
public final class TranscriptRecorder implements TurnListener {
  private final TranscriptStore store;

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
  public void turnsCompleted(List<CompletedTurn> turns) {
    Map<String, List<CompletedTurn>> bySession = new LinkedHashMap<>();
    for (CompletedTurn turn : turns) {
      bySession.computeIfAbsent(turn.sessionId().toString(), k -> new ArrayList<>()).add(turn);
    }
    // A session whose write fails does not keep the others' turns from their transcripts.
    RuntimeException failure = null;
    for (Map.Entry<String, List<CompletedTurn>> session : bySession.entrySet()) {
      try {
        store.appendToChain(
            session.getKey(), (exists, tip) -> entries(session.getValue(), exists, tip));
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

  /** One session's turns as entries chained after {@code tip}. */
  private static List<NewEntry> entries(List<CompletedTurn> turns, boolean exists, UUID tip) {
    List<NewEntry> entries = new ArrayList<>();
    if (!exists) {
      entries.add(NewEntry.agentName(turns.get(0).owner()));
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
