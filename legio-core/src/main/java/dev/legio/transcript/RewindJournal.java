package dev.legio.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.errors.FailureText;
import dev.legio.files.AtomicFile;
import dev.legio.session.RecordWriter;
import dev.legio.session.SessionRecord;
import dev.legio.session.UnfinishedEdits;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What keeps a rewind whole across a crash. A rewind ({@link SessionHistoryEditor}) changes two
 * things no transaction spans: the session record (in the database: the back-end conversation the
 * next turn resumes) and the transcript (on disk: tombstones over the entries taken back). A
 * process killed between the two used to leave a record that resumed the cut conversation beside a
 * transcript still holding the turns cut from it, with the next turns chained after them.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A rewind is decided once its note is on disk: {@code .<session id>.rewind} beside the
 *       transcript, written whole or not at all ({@link AtomicFile}: a temporary file forced to
 *       disk, then renamed over). The note names the session, the back-end conversation its record
 *       named ({@code from}), the copy it is to name ({@code to}; none: the record is closed) and
 *       the transcript entries taken back. The copy is written whole before the note, so a note
 *       never names a conversation that does not exist.
 *   <li>The rewind then writes the record (only while it holds the owner's lease: a lease lost
 *       there writes nothing and deletes the note, and nothing is changed; a note that cannot be
 *       deleted then is reported with its path, since the owner's next turn would make the rewind),
 *       then the tombstones, then deletes the note. A crash before the note changes nothing but may
 *       leave the copy, which nothing names; a crash after it leaves the note.
 *   <li>{@link #finish} completes a note, in the same order, and may run any number of times: the
 *       record is pointed at {@code to} only while it still names the session and {@code from};
 *       only the entries still standing are tombstoned (none twice); a transcript deleted meanwhile
 *       stays deleted. Then the note goes.
 *   <li>It runs holding the owner's lease, before anything else uses the session: at the start of
 *       each turn of the owner, on any node (the engine's {@link UnfinishedEdits}), and before a
 *       rewind or fork of the session (a fork onto another owner holds that owner's lease, so it
 *       catches up the transcript and leaves the record, and the note, to the owner's next turn).
 *       So once a rewind is decided no turn runs on the conversation before it, and a turn's
 *       transcript entries follow the rewind's tombstones.
 *   <li>A transcript that cannot take the tombstones (full, unwritable) keeps the note and is
 *       caught up at the next use; before a turn that is logged and the turn goes on, before an
 *       edit it refuses the edit.
 * </ul>
 */
public final class RewindJournal implements UnfinishedEdits {
  private static final Logger log = LoggerFactory.getLogger(RewindJournal.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SUFFIX = ".rewind";

  /**
   * A decided rewind.
   *
   * @param sessionId the session rewound
   * @param recorded whether the session had a record to point at the copy
   * @param from the back-end conversation its record named; null when none
   * @param to the copy without the turns taken back; null: the record is closed
   * @param removed the transcript entries taken back
   */
  record Note(String sessionId, boolean recorded, String from, String to, List<UUID> removed) {
    Note {
      Objects.requireNonNull(sessionId, "sessionId");
      removed = List.copyOf(removed);
    }

    /** The record a finished rewind leaves: {@code record} pointed at the copy, or closed. */
    SessionRecord applyTo(SessionRecord record) {
      return to == null ? record.closed("rewound") : record.withBackendSessionId(to);
    }

    /** Whether {@code record} is the one this rewind is to change, not yet changed. */
    boolean changes(SessionRecord record) {
      return recorded
          && record != null
          && record.sessionId().toString().equals(sessionId)
          && Objects.equals(record.backendSessionId(), from);
    }
  }

  private final Path folder;
  private final TranscriptStore transcripts;

  /**
   * @param folder where the notes are kept (beside the transcripts)
   * @param transcripts the transcripts the rewinds tombstone
   */
  public RewindJournal(Path folder, TranscriptStore transcripts) {
    this.folder = folder;
    this.transcripts = transcripts;
  }

  /** A journal keeping its notes beside {@code transcripts}' files. */
  public static RewindJournal beside(FileTranscriptStore transcripts) {
    return new RewindJournal(transcripts.folder(), transcripts);
  }

  /** The transcripts the rewinds tombstone. */
  TranscriptStore transcripts() {
    return transcripts;
  }

  /** The note of session {@code sessionId}'s rewind. */
  Path noteOf(String sessionId) {
    return folder.resolve("." + FileTranscriptStore.checkId(sessionId) + SUFFIX);
  }

  /** Writes {@code note} whole, forced to disk: from here on the rewind is decided. */
  void decide(Note note) {
    ObjectNode json = JSON.createObjectNode();
    json.put("session", note.sessionId());
    json.put("recorded", note.recorded());
    json.put("from", note.from());
    json.put("to", note.to());
    ArrayNode removed = json.putArray("removed");
    note.removed().forEach(uuid -> removed.add(uuid.toString()));
    Path file = noteOf(note.sessionId());
    try {
      AtomicFile.write(file, JSON.writeValueAsBytes(json));
    } catch (IOException e) {
      throw new TranscriptException(
          "cannot write "
              + file
              + " ("
              + FailureText.of(e)
              + "), the note a rewind of session "
              + note.sessionId()
              + " is written from; nothing was changed",
          e);
    }
  }

  /** Deletes the note of session {@code sessionId}: its rewind is finished, or never happened. */
  void forget(String sessionId) {
    Path file = noteOf(sessionId);
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new TranscriptException(
          "cannot delete "
              + file
              + " ("
              + FailureText.of(e)
              + "), the note of a rewind of session "
              + sessionId
              + " that is finished or never began; delete it by hand before the session is used"
              + " again",
          e);
    }
  }

  /**
   * Withdraws the note of session {@code sessionId}'s rewind, which was not made ({@code why}): a
   * note left behind would make the rewind at the owner's next turn, so one that cannot be deleted
   * fails with its path and {@code why} suppressed.
   */
  void withdraw(String sessionId, RuntimeException why) {
    Path file = noteOf(sessionId);
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      TranscriptException failed =
          new TranscriptException(
              "the rewind of session "
                  + sessionId
                  + " was not made ("
                  + why.getMessage()
                  + "), but its note "
                  + file
                  + " could not be deleted ("
                  + FailureText.of(e)
                  + "): delete that file by hand before the session's next turn, or that turn"
                  + " makes the rewind",
              e);
      failed.addSuppressed(why);
      throw failed;
    }
  }

  /** Writes the tombstones of {@code note}'s entries still standing in its transcript. */
  void tombstone(Note note) {
    List<NewEntry> tombstones = new ArrayList<>();
    try {
      Set<String> standing = new HashSet<>();
      for (TranscriptEntry e : transcripts.load(note.sessionId()).entries()) {
        standing.add(e.uuid());
      }
      for (UUID uuid : note.removed()) {
        if (standing.contains(uuid.toString())) {
          tombstones.add(NewEntry.tombstone(uuid));
        }
      }
    } catch (NoSuchTranscriptException deleted) {
      return;
    }
    if (!tombstones.isEmpty()) {
      transcripts.append(note.sessionId(), tombstones);
    }
  }

  /**
   * Before a turn: finishes the rewind of {@code stored}'s session a crash left half done, if any
   * (one file look-up when there is none). A transcript that cannot take its tombstones is logged
   * and keeps the note; the turn goes on with the finished record.
   */
  @Override
  public SessionRecord finish(SessionRecord stored, RecordWriter writer) {
    if (stored == null) {
      return null;
    }
    String sessionId = stored.sessionId().toString();
    Note note = read(sessionId);
    if (note == null) {
      return stored;
    }
    SessionRecord record = finishRecord(note, stored, writer);
    try {
      tombstone(note);
      forget(sessionId);
      log.info(
          "{}: finished the rewind of session {} a crash cut short", stored.owner(), sessionId);
    } catch (TranscriptException e) {
      log.warn(
          "{}: the rewind of session {} a crash cut short is not finished yet (tried again at its"
              + " next turn): {}",
          stored.owner(),
          sessionId,
          e.getMessage());
    }
    return record;
  }

  /**
   * Before an edit of session {@code sessionId}: finishes its rewind a crash left half done, if
   * any.
   *
   * @param record the session's record, or null when it has none
   * @param writer where its record is written; null when this edit may not write it (a fork onto
   *     another owner holds that owner's lease, not the record's): then the record is left for its
   *     owner's next turn to finish, and the note kept for it
   * @return the record as the finished rewind leaves it (written, or to be written)
   * @throws TranscriptException when the transcript cannot take the tombstones (the note is kept)
   */
  SessionRecord finishBeforeEdit(String sessionId, SessionRecord record, RecordWriter writer) {
    Note note = read(sessionId);
    if (note == null) {
      return record;
    }
    if (note.changes(record) && writer == null) {
      tombstone(note);
      return note.applyTo(record);
    }
    SessionRecord after = finishRecord(note, record, writer);
    tombstone(note);
    forget(sessionId);
    return after;
  }

  private static SessionRecord finishRecord(Note note, SessionRecord record, RecordWriter writer) {
    if (!note.changes(record)) {
      return record;
    }
    SessionRecord after = note.applyTo(record);
    writer.save(after);
    return after;
  }

  /** The note of session {@code sessionId}, or null when it has none. */
  Note read(String sessionId) {
    Path file = noteOf(sessionId);
    if (!TranscriptFiles.exists(file)) {
      return null;
    }
    try (FileChannel in = TranscriptFiles.openForReading(file)) {
      JsonNode json = JSON.readTree(Channels.newInputStream(in));
      List<UUID> removed = new ArrayList<>();
      for (JsonNode uuid : json.path("removed")) {
        removed.add(UUID.fromString(uuid.asText()));
      }
      if (!sessionId.equals(json.path("session").asText())) {
        throw new IllegalArgumentException("it names session " + json.path("session"));
      }
      return new Note(
          sessionId,
          json.path("recorded").asBoolean(),
          text(json, "from"),
          text(json, "to"),
          removed);
    } catch (java.nio.file.NoSuchFileException finished) {
      return null; // finished by another process meanwhile
    } catch (IOException | RuntimeException e) {
      throw new TranscriptException(
          "cannot read "
              + file
              + " ("
              + FailureText.of(e)
              + "), the note of a rewind of session "
              + sessionId
              + " that did not finish; move it away once the session's record and transcript"
              + " agree",
          e);
    }
  }

  private static String text(JsonNode json, String field) {
    JsonNode value = json.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}
