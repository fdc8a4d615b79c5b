package dev.legio.transcript;

import com.fasterxml.uuid.Generators;
import dev.legio.backend.http.ConversationStore;
import dev.legio.log.Names;
import dev.legio.session.LeaseLostException;
import dev.legio.session.RecordWriter;
import dev.legio.session.SessionEditGate;
import dev.legio.session.SessionRecord;
import dev.legio.session.SessionShape;
import dev.legio.session.SessionStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * Rewinds a session to an earlier point, or forks a new session from one ({@code legio sessions
 * rewind|fork}, the chat's {@code /rewind} and {@code /fork}, {@code POST
 * /api/v1/sessions/{id}/rewind|fork}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A point is an entry of the session's transcript ({@link Point.AtEntry}: that entry stays,
 *       what follows goes) or a number of turns to take back from the end ({@link Point.LastTurns}:
 *       each turn is one request with everything after it up to the next). A turn is a {@code user}
 *       entry and what follows it; the number of turns taken back is what the back-end's
 *       conversation loses from its end.
 *   <li>Rewind tombstones the transcript's later entries (nothing is rewritten: the transcript
 *       stays append-only), and makes the session's next turn continue from the point on every
 *       back-end: an HTTP back-end's conversation is copied without its last turns into a new
 *       stored conversation (the old one is left as it was); the Claude Code CLI's conversation is
 *       rewritten into a new CLI transcript without its last turns ({@link ConversationCopier});
 *       the session record is pointed at the copy, so the engine resumes it (it never continues a
 *       live session whose record names another conversation). A back-end that keeps no
 *       conversation Legio can reach has its record closed: the next turn starts afresh from the
 *       praetorium.
 *   <li>A rewind is whole across a crash: it writes the copy, then a note of what it is about to do
 *       ({@link RewindJournal}), then the record, then the tombstones; a process killed anywhere
 *       leaves either nothing changed or a note, which the owner's next turn (on any node) or the
 *       session's next edit finishes before anything else, so the record and the transcript never
 *       disagree on what the session holds. A rewind run again after a crash therefore takes back
 *       its turns from what the first left, never twice from the conversation alone.
 *   <li>Fork starts a new session id holding the transcript up to the point (new entry ids, the
 *       same chain, written whole) and a copy of the back-end's conversation up to it, as the
 *       owner's active session ({@code owner} given: that agent's). The original session's
 *       transcript and conversation are not touched. A crash before its record is written leaves a
 *       transcript no record names, which a listing shows as a session of its own.
 *   <li>An unknown session, or a point that is not one of its entries, is refused with {@link
 *       IllegalArgumentException} and changes nothing; so is a rewind of a session whose id (a
 *       transcript renamed by hand) or a removed entry's id is not a UUID, which a record and a
 *       tombstone need, checked before anything is written (a fork copies such a session under new
 *       ids).
 *   <li>Guarded by the engine ({@link #guardedBy}), an edit runs only while no turn of the owner
 *       whose record it writes runs (a rewind: the session's owner; a fork: the new owner), in this
 *       process or another; a turn that outlasts {@code lock_wait} refuses the edit whole.
 * </ul>
 */
public final class SessionHistoryEditor {

  /** Where a rewind or a fork cuts the session. */
  public sealed interface Point {
    /** Keep everything up to and including this transcript entry. */
    record AtEntry(UUID entry) implements Point {}

    /** Take back the last {@code turns} turns. */
    record LastTurns(int turns) implements Point {
      public LastTurns {
        if (turns < 1) {
          throw new IllegalArgumentException("--last takes a number of turns, 1 or more");
        }
      }
    }

    /** Keep everything (a fork of the whole session). */
    record End() implements Point {}
  }

  /**
   * What a rewind or fork did.
   *
   * @param sessionId the session that continues from the point (the same one for a rewind, the new
   *     one for a fork)
   * @param owner whose session it is
   * @param entriesRemoved transcript entries left out after the point
   * @param turnsRemoved turns taken back
   * @param backendSessionId the back-end conversation the session now continues; null when none
   *     (the next turn starts afresh)
   */
  public record Result(
      UUID sessionId,
      String owner,
      int entriesRemoved,
      int turnsRemoved,
      String backendSessionId) {}

  private final SessionStore sessions;
  private final RewindJournal rewinds;
  private final TranscriptStore transcripts;
  private final ConversationCopier copier;
  private final Clock clock;
  private Function<String, SessionShape> shapes;
  private SessionEditGate gate; // null: edits run at once (no engine to wait for)

  /**
   * @param rewinds the sessions' transcripts, with the notes that keep a rewind whole across a
   *     crash
   * @param conversations the HTTP back-ends' conversations; null when there are none
   * @param cliTranscripts the Claude Code CLI's own transcripts (its projects folder for Legio's
   *     working directory); null when the CLI is not used
   */
  public SessionHistoryEditor(
      SessionStore sessions,
      RewindJournal rewinds,
      ConversationStore conversations,
      TranscriptStore cliTranscripts,
      Clock clock) {
    this.sessions = sessions;
    this.rewinds = rewinds;
    this.transcripts = rewinds.transcripts();
    this.copier = new ConversationCopier(conversations, cliTranscripts, clock);
    this.clock = clock;
  }

  /**
   * How to tell an owner's session shape, so that a fork given to another owner is recorded with
   * that owner's prompt (its next turn continues the fork instead of rebuilding for a changed
   * prompt); without it, a fork keeps the original's.
   */
  public SessionHistoryEditor withShapes(Function<String, SessionShape> ownerShapes) {
    this.shapes = ownerShapes;
    return this;
  }

  /**
   * Makes every edit wait until no turn of the owner whose record it writes runs, by {@code edits}'
   * rules ({@link SessionEditGate}): a turn that ends would otherwise write its record over the
   * edit's.
   */
  public SessionHistoryEditor guardedBy(SessionEditGate edits) {
    this.gate = edits;
    return this;
  }

  /**
   * Rewinds session {@code sessionId} to {@code point}.
   *
   * @throws dev.legio.session.SessionBusyException when a turn of its owner still ran after {@code
   *     lock_wait}; nothing changed
   */
  public Result rewind(String sessionId, Point point) {
    return guarded(ownerOf(sessionId), writer -> rewindNow(sessionId, point, writer));
  }

  private Result rewindNow(String sessionId, Point point, RecordWriter writer) {
    UUID id = rewindableId(sessionId);
    Optional<SessionRecord> record = finishEarlierRewind(sessionId, writer);
    Transcript transcript = load(sessionId);
    Cut cut = Cut.of(transcript.entries(), point);
    String owner = record.map(SessionRecord::owner).orElse(transcript.owner());
    List<UUID> removed = cut.removed().stream().map(e -> entryId(sessionId, e)).toList();
    if (record.isEmpty() && removed.isEmpty()) {
      return new Result(id, owner, 0, 0, null);
    }
    String backendId =
        record.isPresent() ? copier.copyWithout(record.get(), cut.turnsRemoved()) : null;
    RewindJournal.Note note =
        new RewindJournal.Note(
            sessionId,
            record.isPresent(),
            record.map(SessionRecord::backendSessionId).orElse(null),
            backendId,
            removed);
    rewinds.decide(note);
    if (record.isPresent()) {
      try {
        writer.save(note.applyTo(record.get()));
      } catch (LeaseLostException e) {
        rewinds.withdraw(sessionId, e); // nothing was written: the rewind never happened
        throw e;
      }
    }
    try {
      if (!removed.isEmpty()) {
        transcripts.append(sessionId, removed.stream().map(NewEntry::tombstone).toList());
      }
    } catch (TranscriptException e) {
      throw new TranscriptException(
          "session "
              + sessionId
              + " was rewound, but its transcript could not take the tombstones yet ("
              + e.getMessage()
              + "); they are written before the session's next turn or edit",
          e);
    }
    rewinds.forget(sessionId);
    return new Result(id, owner, removed.size(), cut.turnsRemoved(), backendId);
  }

  /**
   * {@code sessionId} as the UUID a rewind needs, checked before anything is written; a transcript
   * renamed by hand ({@code notes.jsonl}) is refused, and a fork copies it under a UUID.
   */
  private static UUID rewindableId(String sessionId) {
    try {
      return UUID.fromString(sessionId);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "session "
              + sessionId
              + " cannot be rewound: its id is not a UUID (its transcript was renamed?); `legio"
              + " sessions fork "
              + sessionId
              + "` copies it into a session that can be",
          e);
    }
  }

  /** The id of {@code entry}, which a tombstone names; an entry whose id is no UUID is refused. */
  private static UUID entryId(String sessionId, TranscriptEntry entry) {
    try {
      return UUID.fromString(entry.uuid());
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException(
          "session "
              + sessionId
              + " cannot be rewound there: its entry '"
              + dev.legio.errors.Quoted.of(String.valueOf(entry.uuid()))
              + "' has no UUID for a tombstone to name; rewind to a later point, or fork it",
          e);
    }
  }

  /**
   * Finishes a rewind of the session that a crash left half done, so that an edit starts from what
   * the session holds; returns its record after.
   */
  private Optional<SessionRecord> finishEarlierRewind(String sessionId, RecordWriter writer) {
    return Optional.ofNullable(
        rewinds.finishBeforeEdit(sessionId, recordOf(sessionId).orElse(null), writer));
  }

  /**
   * Forks session {@code sessionId} at {@code point} into a new session of {@code owner} (null: the
   * original's owner), which becomes that owner's active session.
   */
  public Result fork(String sessionId, Point point, String owner) {
    return guarded(
        owner != null ? owner : ownerOf(sessionId),
        writer -> forkNow(sessionId, point, owner, writer));
  }

  private Result forkNow(String sessionId, Point point, String owner, RecordWriter writer) {
    // A fork onto another owner holds that owner's lease, not the origin's: the origin's record
    // is then finished by its owner's next turn, and forked as the finished rewind leaves it.
    Optional<SessionRecord> stored = recordOf(sessionId);
    boolean ownRecord = owner == null || stored.map(r -> r.owner().equals(owner)).orElse(true);
    Optional<SessionRecord> record =
        Optional.ofNullable(
            rewinds.finishBeforeEdit(sessionId, stored.orElse(null), ownRecord ? writer : null));
    Transcript transcript = load(sessionId);
    Cut cut = Cut.of(transcript.entries(), point);
    String newOwner =
        owner != null ? owner : record.map(SessionRecord::owner).orElse(transcript.owner());
    if (newOwner == null) {
      throw new IllegalArgumentException(
          "session " + sessionId + " does not say whose it is: name the owner (--owner NAME)");
    }
    // The new owner's shape before anything is written: a fork onto an owner with no prompt is
    // refused whole, not left half made.
    SessionShape newShape =
        shapes != null
                && !newOwner.equals(record.map(SessionRecord::owner).orElse(transcript.owner()))
            ? shapeOf(newOwner)
            : null;
    UUID forkId = Generators.timeBasedEpochGenerator().generate();
    // The fork starts when its record is created: its transcript says so in its first line.
    Instant now = clock.instant();
    List<NewEntry> copy = new ArrayList<>();
    copy.add(NewEntry.agentName(newOwner, now));
    Map<String, UUID> renamed = new HashMap<>();
    for (TranscriptEntry e : cut.kept()) {
      UUID uuid = UUID.randomUUID();
      renamed.put(e.uuid(), uuid);
      UUID parent = e.parentUuid() == null ? null : renamed.get(e.parentUuid());
      if (e.isSummary()) {
        copy.add(new NewEntry.Summary(uuid, parent, e.text(), e.messagesCompacted()));
      } else if (MESSAGE_TYPES.contains(e.type())) {
        copy.add(new NewEntry.Message(e.type(), uuid, parent, e.message()));
      } else {
        renamed.put(e.uuid(), parent); // left out: what follows it chains to its parent
      }
    }
    transcripts.create(forkId.toString(), copy);
    String backendId = null;
    if (record.isPresent()) {
      SessionRecord r = record.get();
      backendId = copier.copyWithout(r, cut.turnsRemoved());
      long rebuilds = sessions.find(newOwner).map(SessionRecord::rebuilds).orElse(0L);
      String promptHash = r.promptHash();
      String rosterHash = r.rosterHash();
      if (newShape != null) {
        promptHash = newShape.promptHash();
        rosterHash = newShape.rosterHash();
      }
      writer.save(
          new SessionRecord(
              newOwner,
              forkId,
              r.backend(),
              backendId,
              promptHash,
              rosterHash,
              0,
              0,
              0,
              r.lastInjectedSequence(),
              now,
              now,
              now.plus(java.time.Duration.between(r.lastActiveAt(), r.expiresAt())),
              backendId == null ? SessionRecord.State.CLOSED : SessionRecord.State.ACTIVE,
              backendId == null ? "forked without a back-end conversation" : null,
              rebuilds));
    }
    return new Result(forkId, newOwner, cut.removed().size(), cut.turnsRemoved(), backendId);
  }

  /** {@code owner}'s session shape; an owner that has none (no prompt file) is refused. */
  private SessionShape shapeOf(String owner) {
    try {
      return shapes.apply(owner);
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException(
          "cannot fork onto '"
              + owner
              + "': "
              + e.getMessage()
              + "; name the legatus, a centurio or a channel (such as telegram:42)",
          e);
    }
  }

  private Transcript load(String sessionId) {
    try {
      return transcripts.load(sessionId);
    } catch (NoSuchTranscriptException e) {
      throw new IllegalArgumentException(
          "no session " + sessionId + " with a transcript (see `legio sessions list`)", e);
    }
  }

  /** Whose session {@code sessionId} is: its record's owner, else its transcript's; may be null. */
  private String ownerOf(String sessionId) {
    return recordOf(sessionId).map(SessionRecord::owner).orElseGet(() -> load(sessionId).owner());
  }

  /** Runs {@code edit} of {@code owner}'s record once no turn of it runs (see {@link #gate}). */
  private Result guarded(String owner, Function<RecordWriter, Result> edit) {
    if (gate == null || owner == null || !Names.isValid(owner)) {
      return edit.apply(
          RecordWriter.plain(sessions)); // a name that is none is refused by the edit itself
    }
    return gate.whileNoTurnRuns(owner, edit);
  }

  private Optional<SessionRecord> recordOf(String sessionId) {
    return sessions.list().stream()
        .filter(r -> r.sessionId().toString().equals(sessionId))
        .findFirst();
  }

  /** The entries a copy keeps besides summaries. */
  static final java.util.Set<String> MESSAGE_TYPES =
      java.util.Set.of("user", "assistant", "system");

  /** A {@code user} entry that is a request (not a tool's result). */
  static boolean isPrompt(TranscriptEntry e) {
    if (!"user".equals(e.type())) {
      return false;
    }
    var content = e.message() == null ? null : e.message().get("content");
    if (content == null || content.isTextual()) {
      return true;
    }
    for (var block : content) {
      if ("tool_result".equals(block.path("type").asText())) {
        return false;
      }
    }
    return true;
  }

  /** A transcript cut at a point: the entries kept, those removed, the turns taken back. */
  record Cut(List<TranscriptEntry> kept, List<TranscriptEntry> removed, int turnsRemoved) {
    static Cut of(List<TranscriptEntry> entries, Point point) {
      int at =
          switch (point) {
            case Point.End end -> entries.size();
            case Point.AtEntry a -> {
              for (int i = 0; i < entries.size(); i++) {
                if (a.entry().toString().equals(entries.get(i).uuid())) {
                  yield i + 1;
                }
              }
              throw new IllegalArgumentException(
                  "no entry " + a.entry() + " in this session (see `legio sessions show ID`)");
            }
            case Point.LastTurns last -> {
              int seen = 0;
              for (int i = entries.size() - 1; i >= 0; i--) {
                if (isPrompt(entries.get(i)) && ++seen == last.turns()) {
                  yield i;
                }
              }
              throw new IllegalArgumentException(
                  "the session has "
                      + (seen == 1 ? "1 turn" : seen + " turns")
                      + "; cannot take back "
                      + last.turns());
            }
          };
      List<TranscriptEntry> removed = entries.subList(at, entries.size());
      int turns = (int) removed.stream().filter(SessionHistoryEditor::isPrompt).count();
      return new Cut(entries.subList(0, at), removed, turns);
    }
  }
}
