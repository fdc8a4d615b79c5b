package dev.legio.longterm;

/** The gates a consolidation passes, checked in this order (cheapest first). */
public enum ConsolidationGate {
  /** {@code dream_min_hours} since the last run: one small file read. */
  TIME,
  /**
   * {@code dream_min_sessions} of the agent's sessions changed since then: a transcript listing.
   */
  SESSIONS,
  /** No live {@code .consolidation_lock}: taking the lock. */
  LOCK
}
