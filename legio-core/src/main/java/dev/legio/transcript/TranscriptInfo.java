package dev.legio.transcript;

import java.time.Instant;

/**
 * One session's transcript as a listing shows it.
 *
 * @param owner the agent or channel the session belongs to (Claude Code's {@code agent-name}
 *     entry), or null when the transcript does not say (one the Claude Code CLI wrote)
 * @param messages the messages and summaries a load returns (tombstoned ones not counted)
 * @param created when it started ({@link TranscriptStartTime}): the session's creation its first
 *     {@code agent-name} line carries (a transcript Legio began), else the timestamp of its first
 *     conversation line, tombstoned or not (a user, assistant or summary line), or, when no line
 *     has one, the first part's modification time
 * @param lastModified the latest modification time of its parts
 * @param bytes the size of all its parts
 * @param parts how many files it has
 * @param context how full the conversation was at its last answer, from that entry's usage; null
 *     when the transcript does not tell
 */
public record TranscriptInfo(
    String sessionId,
    String owner,
    int messages,
    Instant created,
    Instant lastModified,
    long bytes,
    int parts,
    TranscriptContext context) {

  /** A listing without a context figure. */
  public TranscriptInfo(
      String sessionId,
      String owner,
      int messages,
      Instant created,
      Instant lastModified,
      long bytes,
      int parts) {
    this(sessionId, owner, messages, created, lastModified, bytes, parts, null);
  }
}
