package dev.legio.longterm;

/** The phases of one consolidation, in the order they run. */
public enum ConsolidationPhase {
  /** Read {@code MEMORY.md} and list the folder's topic files. */
  ORIENT,
  /** Collect the agent's transcripts changed since the last run and the extracted facts. */
  GATHER,
  /** Write the topic files: by the model when its back-end can answer, else deterministically. */
  CONSOLIDATE,
  /** Rewrite {@code MEMORY.md} as the index, without the consolidated facts. */
  PRUNE;

  /** Its name as progress shows it: {@code orient}, {@code gather}, ... */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
