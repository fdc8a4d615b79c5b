package dev.legio.longterm;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Filing facts into topic files without the model (all facts when it cannot answer, those it did
 * not take otherwise), and the lines that are not facts into {@value #UNSORTED}.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>One file per category ({@code preferences.md}, {@code project.md}, ... as {@link
 *       FactCategory} names them), created with its {@code # Title} when missing; a file the model
 *       asked to remove is kept when facts are filed into it; when the model wrote the file this
 *       run, its title and hook are kept.
 *   <li>A fact is written {@code - text (confidence 0.90, 2026-11-21)}, its relative dates made
 *       absolute ({@link ConsolidationDates}) against its day. A fact whose text matches a bullet
 *       already there ({@link ConsolidationFact#dedupeKey}) replaces it only when more confident;
 *       others are appended. Every other line of the file is kept.
 *   <li>Lines of the extracted section that are not facts are appended to {@value #UNSORTED} under
 *       a {@code ## From the session memories of <day>} heading per day.
 * </ul>
 */
final class CategoryFiling {
  /** Where lines of MEMORY.md that fit nowhere else are kept. */
  static final String UNSORTED = "unsorted.md";

  private static final Pattern TOPIC_FACT =
      Pattern.compile(
          "^- (.+?) \\(confidence ([01]\\.\\d\\d)(?:, (\\d{4}-\\d{2}-\\d{2}))?\\)\\s*$");

  private CategoryFiling() {}

  /** Puts the facts into one file per category, deduplicated, highest confidence kept. */
  static void fileFacts(List<ConsolidationFact> facts, TopicFiles topics) {
    Map<FactCategory, List<ConsolidationFact>> byCategory = new LinkedHashMap<>();
    for (ConsolidationFact f : facts) {
      byCategory.computeIfAbsent(f.category(), c -> new ArrayList<>()).add(f);
    }
    for (Map.Entry<FactCategory, List<ConsolidationFact>> e : byCategory.entrySet()) {
      FactCategory c = e.getKey();
      topics.removed.remove(c.topicFile());
      ConsolidationTopic before = topics.written.get(c.topicFile());
      String base = topics.content(c.topicFile());
      String content = mergeFacts(base, c.topicTitle(), e.getValue());
      topics.written.put(
          c.topicFile(),
          new ConsolidationTopic(
              c.topicFile(),
              before != null ? before.title() : c.topicTitle(),
              before != null && !before.hook().isEmpty() ? before.hook() : c.topicHook(),
              content));
    }
  }

  /** Appends the lines of the extracted section that are not facts to {@value #UNSORTED}. */
  static void fileUnsorted(List<MemoryFile.Unparsed> lines, TopicFiles topics) {
    if (lines.isEmpty()) {
      return;
    }
    StringBuilder add = new StringBuilder();
    LocalDate current = null;
    boolean first = true;
    for (MemoryFile.Unparsed u : lines) {
      if (first || !Objects.equals(u.day(), current)) {
        add.append('\n')
            .append(
                u.day() == null
                    ? "## From the auto-extracted memories"
                    : "## From the session memories of " + u.day())
            .append("\n\n");
        current = u.day();
        first = false;
      }
      add.append(u.line()).append('\n');
    }
    appendUnsorted(add.toString(), topics);
  }

  /** Appends {@code text} to {@value #UNSORTED} (created with its title when missing). */
  static void appendUnsorted(String text, TopicFiles topics) {
    String base = topics.content(UNSORTED);
    if (base == null) {
      base = "# Unsorted\n\nLines of MEMORY.md that consolidation could not file elsewhere.\n";
    }
    if (!base.endsWith("\n")) {
      base += "\n";
    }
    topics.written.put(
        UNSORTED,
        new ConsolidationTopic(
            UNSORTED, "Unsorted", "lines of MEMORY.md kept here by consolidation", base + text));
  }

  /**
   * {@code base} (a category topic file, or null for a new one) with the facts merged in, as the
   * class comment says.
   */
  static String mergeFacts(String base, String title, List<ConsolidationFact> facts) {
    List<String> lines = new ArrayList<>();
    if (base == null || base.isBlank()) {
      lines.add("# " + title);
      lines.add("");
    } else {
      lines.addAll(List.of(base.split("\r?\n", -1)));
      while (!lines.isEmpty() && lines.getLast().isBlank()) {
        lines.removeLast();
      }
    }
    Map<String, Integer> at = new HashMap<>();
    Map<String, Double> confidence = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = TOPIC_FACT.matcher(lines.get(i));
      if (m.matches()) {
        String k = ConsolidationFact.dedupeKey(m.group(1));
        at.putIfAbsent(k, i);
        confidence.putIfAbsent(k, Double.parseDouble(m.group(2)));
      }
    }
    for (ConsolidationFact f : facts) {
      String text = f.absoluteText().replaceAll("\\s+", " ").strip();
      String line =
          "- "
              + text
              + " (confidence "
              + String.format(Locale.ROOT, "%.2f", f.confidence())
              + (f.day() == null ? "" : ", " + f.day())
              + ")";
      String k = ConsolidationFact.dedupeKey(text);
      Integer i = at.get(k);
      if (i == null) {
        at.put(k, lines.size());
        confidence.put(k, f.confidence());
        lines.add(line);
      } else if (f.confidence() > confidence.get(k)) {
        lines.set(i, line);
        confidence.put(k, f.confidence());
      }
    }
    return String.join("\n", lines) + "\n";
  }
}
