package dev.legio.session;

import java.util.List;

/**
 * Every session record of a store, and the rows that could not be read as one.
 *
 * <p>Rule: one damaged row never hides the others. A row whose values cannot be read as a {@link
 * SessionRecord} ({@link DamagedSession}: an unknown state, previous back-end ids that are not a
 * JSON array of strings, ...) is left out of {@link #records} and named in {@link #damaged}, with
 * what is wrong and what to do; every other record is listed. {@code legio status}, {@code legio
 * sessions list}, {@code GET /api/v1/status} and {@code GET /api/v1/sessions} show both (as {@code
 * damaged_sessions}), as {@code transcript.TranscriptListing} does for transcripts.
 *
 * @param records the records, ordered by owner as {@link SessionStore#list} says
 * @param damaged the rows left out, ordered by owner
 */
public record SessionListing(List<SessionRecord> records, List<DamagedSession> damaged) {
  public SessionListing {
    records = List.copyOf(records);
    damaged = List.copyOf(damaged);
  }

  /** The damaged row of {@code owner}, if its row is damaged. */
  public java.util.Optional<DamagedSession> damageOf(String owner) {
    return damaged.stream().filter(d -> d.owner().equals(owner)).findFirst();
  }
}
