package dev.legio.transcript;

import java.util.List;

/**
 * A loaded transcript: its messages and summaries in the order they were written (all parts
 * stitched, tombstoned entries left out), and what loading skipped.
 *
 * @param owner the last {@code agent-name} entry's name, or null
 */
public record Transcript(
    String sessionId, String owner, List<TranscriptEntry> entries, LoadReport report) {

  /** The last entry's uuid (the parent of the next message), or null when it has none. */
  public String lastUuid() {
    for (int i = entries.size() - 1; i >= 0; i--) {
      if (entries.get(i).uuid() != null) {
        return entries.get(i).uuid();
      }
    }
    return null;
  }
}
