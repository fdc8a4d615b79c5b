package dev.legio.task;

import java.util.List;

/**
 * A task the caller must change before sending it again: a bad session key, an unknown agent, an
 * empty text. Nothing ran and nothing was recorded.
 */
public final class TaskRefusedException extends IllegalArgumentException {
  private final transient List<String> knownAgents;

  TaskRefusedException(String message) {
    this(message, List.of());
  }

  TaskRefusedException(String message, List<String> knownAgents) {
    super(message);
    this.knownAgents = List.copyOf(knownAgents);
  }

  /** For an unknown agent, the agents there are; empty otherwise. */
  public List<String> knownAgents() {
    return knownAgents;
  }
}
