package dev.legio.transcript;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Where sessions' transcripts live: append-only JSON Lines in Claude Code's session format, one
 * transcript per session id.
 *
 * <p>Rules (each pinned by a test in {@code FileTranscriptStoreTest}):
 *
 * <ul>
 *   <li>Append-only: entries are only ever added at the end. Removing a message is an appended
 *       {@linkplain NewEntry.Tombstone tombstone}; replacing older messages by a summary is an
 *       appended {@linkplain NewEntry.Summary summary}. Nothing is rewritten.
 *   <li>An append holding a tombstone is on disk (forced) before the call returns, so a deletion
 *       its caller goes on from (a rewind deletes its note next) never comes back after a power
 *       cut.
 *   <li>A new transcript made from another ({@link #create}: a rewind's copy of a Claude Code CLI
 *       conversation, a fork) appears whole or not at all, and is on disk before the call returns,
 *       so a session record written after it never names a transcript a crash cut short.
 *   <li>Every entry is one line, written whole under a lock that other threads and processes
 *       appending to the same transcript respect: lines never interleave or tear. A line left
 *       partial by a crash is skipped when loading and reported; the next append starts on a fresh
 *       line.
 *   <li>An append that continues the chain ({@link #appendToChain}) is given the transcript's tip
 *       (its last message or summary still standing) read under that same lock, so turns appended
 *       by several threads, processes or nodes, and a rewind's tombstones, never fork the chain of
 *       {@code parentUuid}s that Claude Code follows to resume a session.
 *   <li>Loading reads the tombstones first, then the messages minus the tombstoned ones, in the
 *       order they were written; summaries are included. Lines of a type it does not know, and
 *       malformed lines, are skipped and counted in the {@link LoadReport}: they are never fatal.
 *   <li>Message bodies are parsed on demand ({@link TranscriptEntry#json()}); loading itself reads
 *       only each line's type and ids.
 *   <li>A transcript has size limits (in the file store: parts of 50 MB, 200 MB in all). An append
 *       that would pass the total limit fails with {@link TranscriptFullException} and writes
 *       nothing. Listing, loading and deleting treat all parts of a session as one transcript.
 *   <li>Session ids are file names: letters, digits, {@code -}, {@code _} and {@code .} only, no
 *       {@code ..}, not ending in {@code _partN}. Anything else is refused with {@link
 *       IllegalArgumentException} before any file is touched.
 *   <li>Safe for concurrent use by several threads and processes.
 * </ul>
 */
public interface TranscriptStore {

  /**
   * Appends {@code entries} to the end of the session's transcript, creating it if needed, in the
   * given order. Either every entry is written or, when the size limit would be passed, none.
   *
   * @throws TranscriptFullException when the entries would take the transcript past its limit
   * @throws TranscriptException when the transcript cannot be written
   */
  void append(String sessionId, List<? extends NewEntry> entries);

  /**
   * Writes a new transcript holding {@code entries}, in the given order, all at once: until it
   * returns no reader sees the transcript, and once it returns the transcript is on disk (forced),
   * whole, in parts as {@link #append} would cut them.
   *
   * @throws TranscriptException when the session has a transcript already (nothing is written), or
   *     it cannot be written
   * @throws TranscriptFullException when the entries would pass the limit of a transcript
   */
  void create(String sessionId, List<? extends NewEntry> entries);

  /**
   * Appends entries that continue the transcript's chain, as {@link #append} does: {@code next} is
   * asked for them holding the lock appends take, with the transcript's tip read there, so that
   * what other threads, processes and nodes appended meanwhile (their turns, a rewind's tombstones)
   * is seen and the chain never forks.
   *
   * @throws TranscriptFullException when the entries would take the transcript past its limit
   * @throws TranscriptException when the transcript cannot be read or written
   */
  void appendToChain(String sessionId, ChainedEntries next);

  /** The entries to append after a transcript's tip; asked for holding the transcript's lock. */
  @FunctionalInterface
  interface ChainedEntries {
    /**
     * @param exists whether the session has a transcript yet
     * @param tip the uuid of its last message or summary still standing (not tombstoned): the
     *     parent of the next entry; null when there is none
     * @return the entries to append, in order (none: nothing is written)
     */
    List<? extends NewEntry> after(boolean exists, UUID tip);
  }

  /**
   * Loads a session's transcript (all its parts).
   *
   * @throws NoSuchTranscriptException when the session has no transcript
   * @throws TranscriptException when it cannot be read
   */
  Transcript load(String sessionId);

  /** Every session with a transcript, newest first (by last change). */
  List<TranscriptInfo> list();

  /**
   * Every session with a transcript, newest first, and what was left out because it could not be
   * read (a folder or link among the transcripts, a transcript that cannot be opened): one damaged
   * transcript never hides the others.
   */
  default TranscriptListing listing() {
    return new TranscriptListing(list(), List.of());
  }

  /**
   * Every session with a transcript and when it started ({@link TranscriptInfo#created}), and what
   * was left out, as {@link #listing} says, without the rest of each listing: a store should read
   * no more of each transcript than its start (the file store reads its first lines).
   */
  default TranscriptStarts starts() {
    TranscriptListing all = listing();
    return new TranscriptStarts(
        all.sessions().stream()
            .map(i -> new TranscriptStarts.Start(i.sessionId(), i.created()))
            .toList(),
        all.skipped());
  }

  /**
   * One session's listing, or null when it has no transcript.
   *
   * @throws TranscriptException when its transcript cannot be read
   */
  default TranscriptInfo info(String sessionId) {
    return list().stream().filter(i -> i.sessionId().equals(sessionId)).findFirst().orElse(null);
  }

  /** Deletes every part of a session's transcript; returns how many files were removed. */
  int delete(String sessionId);

  /** Deletes every session whose transcript last changed before {@code cutoff}; returns them. */
  default List<TranscriptInfo> prune(Instant cutoff) {
    List<TranscriptInfo> removed = new ArrayList<>();
    for (TranscriptInfo info : list()) {
      if (info.lastModified().isBefore(cutoff)) {
        delete(info.sessionId());
        removed.add(info);
      }
    }
    return removed;
  }
}
