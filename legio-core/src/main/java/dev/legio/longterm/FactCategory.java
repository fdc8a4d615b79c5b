package dev.legio.longterm;

import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of durable fact that memory extraction keeps, each with the label it has in {@code
 * MEMORY.md} ({@code - [preference] ...}) and the topic file deterministic consolidation gathers
 * its facts into ({@code preferences.md}, ...).
 */
public enum FactCategory {
  /** The user's role, style and tool preferences. */
  PREFERENCE(
      "preference",
      "the user's role, working style, format and tool preferences",
      "preferences.md",
      "Preferences",
      "what the people this agent works with prefer"),
  /** Facts about the project: architecture, deadlines, dependencies. */
  PROJECT(
      "project",
      "facts about the work: architecture, places, deadlines, dependencies",
      "project.md",
      "Project",
      "facts about the project: architecture, deadlines, dependencies"),
  /** Recurring patterns and conventions. */
  PATTERN(
      "pattern",
      "recurring patterns and conventions",
      "patterns.md",
      "Patterns",
      "recurring patterns and conventions"),
  /** Why an approach was chosen. */
  DECISION(
      "decision",
      "decisions taken and why",
      "decisions.md",
      "Decisions",
      "decisions taken, and why"),
  /** Hard requirements. */
  CONSTRAINT(
      "constraint",
      "hard requirements and prohibitions",
      "constraints.md",
      "Constraints",
      "hard requirements and limits");

  private final String label;
  private final String meaning;
  private final String topicFile;
  private final String topicTitle;
  private final String topicHook;

  FactCategory(
      String label, String meaning, String topicFile, String topicTitle, String topicHook) {
    this.label = label;
    this.meaning = meaning;
    this.topicFile = topicFile;
    this.topicTitle = topicTitle;
    this.topicHook = topicHook;
  }

  /** The label in {@code MEMORY.md} and in the model's answers: {@code preference}, ... */
  public String label() {
    return label;
  }

  /** What facts of this category capture, as the extraction prompt explains it. */
  public String meaning() {
    return meaning;
  }

  /**
   * The topic file consolidation gathers this category's facts into: {@code preferences.md}, ...
   */
  public String topicFile() {
    return topicFile;
  }

  /** The topic file's title (its {@code #} heading and its link text in the index). */
  public String topicTitle() {
    return topicTitle;
  }

  /** The line the index shows after the topic file's link. */
  public String topicHook() {
    return topicHook;
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
