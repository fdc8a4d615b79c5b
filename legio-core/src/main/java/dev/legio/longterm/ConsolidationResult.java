package dev.legio.longterm;

import java.util.List;

/**
 * What one agent's consolidation came to: it ran, a gate stopped it, a file of its memory folder
 * only the operator can mend stopped it, or it failed.
 */
public sealed interface ConsolidationResult {
  String agent();

  /** Problems met on the way that did not stop it (a malformed state file, refused files). */
  List<String> warnings();

  /**
   * It ran through all four phases and recorded the time.
   *
   * @param filesWritten the topic files written (created or changed), and {@code MEMORY.md}
   * @param filesRemoved the topic files removed (by the model's answer)
   * @param factsConsolidated the extracted facts moved out of {@code MEMORY.md} into topic files
   * @param sessionsGathered the agent's sessions changed since the last run
   * @param indexLines the lines of {@code MEMORY.md} after the run; 0 when there is none (an agent
   *     with nothing to index gets no empty one)
   * @param byModel true when the model's answer was used; false for the deterministic way
   */
  record Completed(
      String agent,
      List<String> filesWritten,
      List<String> filesRemoved,
      int factsConsolidated,
      int sessionsGathered,
      int indexLines,
      boolean byModel,
      List<String> warnings)
      implements ConsolidationResult {}

  /**
   * A gate stopped it before anything was changed; {@code reason} says why, for people. At the
   * {@link ConsolidationGate#LOCK lock} gate it may also be a run that lost its lock to another
   * mid-way: it wrote nothing from then on (topic files it wrote before stay; the other run goes on
   * from them).
   */
  record Skipped(String agent, ConsolidationGate gate, String reason, List<String> warnings)
      implements ConsolidationResult {}

  /**
   * A file of the agent's memory folder stopped it in {@code phase}: a {@code MEMORY.md} that is a
   * symbolic link, a folder or not UTF-8, a topic file that is not UTF-8 ({@link
   * MemoryFileRefused}). The operator's to fix, not a failure: {@code reason} names the file and
   * says what to do; every run stops there until it is fixed. As for {@link Failed}, files written
   * before stay whole and the state is not advanced.
   */
  record Refused(String agent, ConsolidationPhase phase, String reason, List<String> warnings)
      implements ConsolidationResult {}

  /**
   * It failed in {@code phase}; files written before stay as they were or were replaced whole, and
   * the state is not advanced, so the next run does it again.
   */
  record Failed(String agent, ConsolidationPhase phase, String message, List<String> warnings)
      implements ConsolidationResult {}
}
