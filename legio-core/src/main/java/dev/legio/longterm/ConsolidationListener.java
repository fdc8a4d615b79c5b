package dev.legio.longterm;

/**
 * Told of a consolidation's progress, phase by phase, on the thread that runs it. Implementations
 * must return quickly and must not throw.
 */
public interface ConsolidationListener {
  ConsolidationListener NONE = new ConsolidationListener() {};

  /** A phase begins. */
  default void phaseStarted(String agent, ConsolidationPhase phase) {}

  /** A phase ended; {@code detail} says what it found or did, in a few words. */
  default void phaseFinished(String agent, ConsolidationPhase phase, String detail) {}
}
