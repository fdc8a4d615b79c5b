package dev.legio.memory.longterm;

import java.util.Locale;

/**
 * The five categories of extracted facts, each with the topic file deterministic consolidation
 * gathers it into.
 */
public enum ConsolidationCategory {
  PREFERENCE("preferences.md", "Preferences", "what the people this agent works with prefer"),
  PROJECT(
      "project.md", "Project", "facts about the project: architecture, deadlines, dependencies"),
  PATTERN("patterns.md", "Patterns", "recurring patterns and conventions"),
  DECISION("decisions.md", "Decisions", "decisions taken, and why"),
  CONSTRAINT("constraints.md", "Constraints", "hard requirements and limits");

  private final String file;
  private final String title;
  private final String hook;

  ConsolidationCategory(String file, String title, String hook) {
    this.file = file;
    this.title = title;
    this.hook = hook;
  }

  /** The label in {@code MEMORY.md}: {@code preference}, {@code project}, ... */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The topic file its facts are consolidated into. */
  public String file() {
    return file;
  }

  public String title() {
    return title;
  }

  /** The line the index shows after the topic file's link. */
  public String hook() {
    return hook;
  }

  /** The category of a label, or null when it is none of the five. */
  public static ConsolidationCategory ofLabel(String label) {
    for (ConsolidationCategory c : values()) {
      if (c.label().equals(label)) {
        return c;
      }
    }
    return null;
  }
}
