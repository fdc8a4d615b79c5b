package dev.legio.transcript;

import java.time.Instant;
import java.util.List;

/**
 * Every session with a transcript and when it started, without the rest of its listing: what a
 * paged listing orders by before it reads the few sessions of one page ({@link
 * TranscriptStore#info}). Left out and named in {@link #skipped} as {@link TranscriptListing} does:
 * an entry of the folder that is not a regular file, a session whose first part cannot be read.
 *
 * @param sessions the sessions, in no particular order
 * @param skipped for people: one line per entry or session left out, naming it
 */
public record TranscriptStarts(List<Start> sessions, List<String> skipped) {
  public TranscriptStarts {
    sessions = List.copyOf(sessions);
    skipped = List.copyOf(skipped);
  }

  /**
   * One session's start.
   *
   * @param started when it started, as {@link TranscriptInfo#created} says: the session's creation
   *     its {@code agent-name} line carries, else its first conversation line's timestamp; for a
   *     transcript with neither, its first part's modification time
   */
  public record Start(String sessionId, Instant started) {}
}
