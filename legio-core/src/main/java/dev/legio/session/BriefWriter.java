package dev.legio.session;

import java.util.Optional;

/**
 * Writes the brief a condensed session starts from ({@link SessionCondenser}): the model's own
 * account of a back-end conversation, from its transcript. The engine knows no transcripts; the
 * composition root gives it one (for instance {@code dev.legio.transcript.TranscriptBriefWriter}).
 */
@FunctionalInterface
public interface BriefWriter {
  /** Writes no brief: sessions are never condensed. */
  BriefWriter NONE = (record, shape) -> Optional.empty();

  /**
   * The brief of the conversation {@code record.backendSessionId()}, written by {@code shape}'s
   * back-end and model; empty when there is nothing to write it from (no transcript).
   *
   * @throws RuntimeException when the model could not write it (the session then goes on as it is)
   */
  Optional<String> write(SessionRecord record, SessionShape shape);
}
