package dev.legio.session;

/**
 * Finishes an edit of a session (a rewind) that a crash or a failure left half done, before the
 * session is used again. An edit that changes the session record and something outside the database
 * (the transcript) cannot change both in one transaction; the engine asks this at the start of each
 * turn, holding the owner's lease, with the record it read, and goes on with the record it answers.
 * The engine knows no transcripts; the composition root gives it one (for instance {@code
 * dev.legio.transcript.RewindJournal}).
 */
@FunctionalInterface
public interface UnfinishedEdits {
  /** Finishes nothing: the record is used as read. */
  UnfinishedEdits NONE = (stored, writer) -> stored;

  /**
   * Finishes what an edit of {@code stored}'s session left undone.
   *
   * @param stored the owner's record as read, holding its lease; null when it has none
   * @param writer where a finished edit writes the record
   * @return the record to go on with: {@code stored}, or what finishing the edit wrote
   */
  SessionRecord finish(SessionRecord stored, RecordWriter writer);
}
