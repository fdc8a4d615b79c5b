package dev.legio.usage;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What the rows of a usage report are: one per agent, session, key, task run, model or day. */
public enum Grouping {
  /** The agent: a task session's agent profile, else the session's owner (agent or channel). */
  AGENT("agent"),
  SESSION("session"),
  /** A task session's session key; turns of other sessions fall in one row without a key. */
  KEY("key"),
  /** The task run; turns without one fall in one row. */
  TASK_RUN("task-run"),
  /** The model asked for, or {@code BACKEND default} when the back-end chose. */
  MODEL("model"),
  /** The day the turn ended, in UTC ({@code 2026-11-23}). */
  DAY("day");

  private final String label;

  Grouping(String label) {
    this.label = label;
  }

  /** The name (also its JSON form) users type ({@code --by task-run}). */
  @JsonValue
  public String label() {
    return label;
  }

  /** The grouping named {@code label}; a clear error listing the names otherwise. */
  public static Grouping ofLabel(String label) {
    String wanted = label.strip().toLowerCase(Locale.ROOT);
    for (Grouping g : values()) {
      if (g.label.equals(wanted)) {
        return g;
      }
    }
    throw new IllegalArgumentException(
        "'" + label + "' is not a grouping: use agent, session, key, task-run, model or day");
  }
}
