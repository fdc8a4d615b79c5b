package dev.legio.memory.longterm;

import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of durable fact that memory extraction keeps, each with the label it has in {@code
 * MEMORY.md} ({@code - [preference] ...}).
 */
public enum FactCategory {
  /** The user's role, style and tool preferences. */
  PREFERENCE("preference", "the user's role, working style, format and tool preferences"),
  /** Facts about the project: architecture, deadlines, dependencies. */
  PROJECT("project", "facts about the work: architecture, places, deadlines, dependencies"),
  /** Recurring patterns and conventions. */
  PATTERN("pattern", "recurring patterns and conventions"),
  /** Why an approach was chosen. */
  DECISION("decision", "decisions taken and why"),
  /** Hard requirements. */
  CONSTRAINT("constraint", "hard requirements and prohibitions");

  private final String label;
  private final String meaning;

  FactCategory(String label, String meaning) {
    this.label = label;
    this.meaning = meaning;
  }

  /** The label in {@code MEMORY.md} and in the model's answers: {@code preference}, ... */
  public String label() {
    return label;
  }

  /** What facts of this category capture, as the extraction prompt explains it. */
  public String meaning() {
    return meaning;
  }

  /** The category with this label (case and surrounding spaces ignored), if there is one. */
  public static Optional<FactCategory> fromLabel(String label) {
    if (label == null) {
      return Optional.empty();
    }
    String wanted = label.strip().toLowerCase(Locale.ROOT);
    for (FactCategory c : values()) {
      if (c.label.equals(wanted)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}
