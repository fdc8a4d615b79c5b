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
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes every turn of the session engine to its session's transcript: the message sent to the
 * model as a {@code user} entry and its answer as an {@code assistant} entry, chained by {@code
 * parentUuid} as Claude Code chains them, with the model and the turn's token usage in the
 * assistant entry's {@code message.model} and {@code message.usage}, as Claude Code writes them (so
 * a listing can tell how full the context is). A session's transcript is named by its session id
 * and starts with an {@code agent-name} entry naming its owner. Each compaction that ran before a
 * turn ({@link CompletedTurn#compactions()}) is written first, as a {@code summary} entry (its
 * {@code <context_summary>} block and the number of messages it replaces) in the same chain.
 */
public final class TranscriptRecorder implements TurnListener {
  private final TranscriptStore store;

  /** Each session's last entry, so that the next turn chains to it without reading the file. */
  private final Map<String, UUID> last = new ConcurrentHashMap<>();

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
    Map<String, List<NewEntry>> bySession = new LinkedHashMap<>();
    for (CompletedTurn turn : turns) {
      String id = turn.sessionId().toString();
      List<NewEntry> entries = bySession.computeIfAbsent(id, k -> new ArrayList<>());
      UUID parent = last.get(id);
      if (parent == null) {
        try {
          parent = parse(store.load(id).lastUuid());
        } catch (NoSuchTranscriptException e) {
          entries.add(NewEntry.agentName(turn.owner()));
        }
      }
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
      last.put(id, reply.uuid());
    }
    // A session whose write fails does not keep the others' turns from their transcripts.
    RuntimeException failure = null;
    for (Map.Entry<String, List<NewEntry>> session : bySession.entrySet()) {
      try {
        store.append(session.getKey(), session.getValue());
      } catch (RuntimeException e) {
        // This session's chain is unknown now: read it from the file next time.
        last.remove(session.getKey());
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

  /** The turn's usage for the transcript; none when the back-end reported nothing at all. */
  private static Usage usage(Usage usage) {
    return usage == null || usage.equals(Usage.NONE) ? null : usage;
  }

  private static UUID parse(String uuid) {
    if (uuid == null) {
      return null;
    }
    try {
      return UUID.fromString(uuid);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
