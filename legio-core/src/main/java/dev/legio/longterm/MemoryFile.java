package dev.legio.longterm;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An agent's {@code MEMORY.md}: the one model of its format, which extraction appends to and
 * consolidation rewrites (the README's "Long-term memory" section shows it to users):
 *
 * <pre>
 * # Memory — vorenus
 *
 * - [Roads](roads.md) — the northern roads and their state
 *
 * ## Auto-extracted memories
 *
 * ### Session memories — 2026-11-21
 * - [preference] Caesar wants scouting reports as bullet points (confidence 0.90)
 * </pre>
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A fact line is {@code - [category] text (confidence 0.90)}: one of the five categories, a
 *       confidence from 0 to 1, runs of spaces around the text allowed (a hand edit). {@link
 *       #parseFactLine} is the one reader of fact lines, for extraction and consolidation.
 *   <li>Appending ({@link #appendFacts}, extraction) edits the text line by line and keeps every
 *       other line as it was (line endings become {@code \n}): facts go under {@value
 *       #EXTRACTED_HEADING} (created at the end when missing; the file gets a {@code # Memory —
 *       agent} title when empty), below a {@code ### Session memories — YYYY-MM-DD} heading for the
 *       day, reused when it is the section's last one, else added at the end of the section.
 *   <li>Parsing the whole file ({@link #parse}, consolidation) never fails and loses nothing: lines
 *       it does not recognise are kept (before the first {@code ##} heading: {@link #preamble};
 *       other {@code ##} sections: {@link #sections} verbatim; unrecognised lines of the extracted
 *       section: {@link #unparsed}). {@link #render} writes title, index, preamble, other sections,
 *       then the extracted section, with single blank lines between them.
 * </ul>
 */
public record MemoryFile(
    String title,
    List<IndexEntry> index,
    List<String> preamble,
    List<String> sections,
    List<Block> extracted) {

  public static final String FILE_NAME = "MEMORY.md";
  public static final String EXTRACTED_HEADING = "## Auto-extracted memories";
  public static final String DAY_HEADING = "### Session memories — ";

  private static final Pattern INDEX_LINE =
      Pattern.compile("^- \\[(.+?)\\]\\(([^()\\s]+)\\)(?:\\s+[—–-]\\s+(.*))?\\s*$");
  private static final Pattern DAY =
      Pattern.compile("^### Session memories\\s*[—–-]\\s*(\\d{4}-\\d{2}-\\d{2})\\s*$");

  /**
   * A fact line as {@link ExtractedFact#line()} writes it; runs of spaces around the text (a hand
   * edit) are allowed.
   */
  private static final Pattern FACT =
      Pattern.compile(
          "^- \\[([a-z]+)\\]\\s+(.+?)\\s+\\(confidence\\s+([0-9]+(?:\\.[0-9]+)?)\\)\\s*$");

  /** One pointer of the index: {@code - [Title](file.md) — hook}. */
  public record IndexEntry(String title, String file, String hook) {
    public String line() {
      return "- ["
          + title
          + "]("
          + file
          + ")"
          + (hook == null || hook.isBlank() ? "" : " — " + hook);
    }
  }

  /**
   * The lines of the extracted section under one heading.
   *
   * @param day the heading's date; null for lines before any dated heading
   * @param heading the heading as written, or null
   * @param lines its non-blank lines
   */
  public record Block(LocalDate day, String heading, List<String> lines) {}

  /** An unrecognised line of the extracted section, with the date of its heading (or null). */
  public record Unparsed(LocalDate day, String line) {}

  /** The file of an agent that has none yet. */
  public static MemoryFile empty() {
    return new MemoryFile(null, List.of(), List.of(), List.of(), List.of());
  }

  /** Reads the text of a {@code MEMORY.md}. */
  public static MemoryFile parse(String text) {
    String title = null;
    List<IndexEntry> index = new ArrayList<>();
    List<String> preamble = new ArrayList<>();
    List<String> sections = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    enum Where {
      PREAMBLE,
      OTHER,
      EXTRACTED
    }
    Where where = Where.PREAMBLE;
    Block block = null;
    for (String raw : text.split("\r?\n", -1)) {
      String line = raw.stripTrailing();
      if (line.startsWith("## ")) {
        if (line.strip().equalsIgnoreCase(EXTRACTED_HEADING)) {
          where = Where.EXTRACTED;
          block = null;
          continue;
        }
        where = Where.OTHER;
        if (!sections.isEmpty() && !sections.getLast().isEmpty()) {
          sections.add("");
        }
        sections.add(line);
        continue;
      }
      switch (where) {
        case PREAMBLE -> {
          if (line.isBlank()) {
            continue;
          }
          if (title == null && index.isEmpty() && preamble.isEmpty() && line.startsWith("# ")) {
            title = line;
            continue;
          }
          Matcher m = INDEX_LINE.matcher(line);
          if (m.matches()) {
            index.add(new IndexEntry(m.group(1), m.group(2), m.group(3)));
          } else {
            preamble.add(line);
          }
        }
        case OTHER -> {
          if (!(line.isBlank() && (sections.isEmpty() || sections.getLast().isBlank()))) {
            sections.add(line);
          }
        }
        case EXTRACTED -> {
          Matcher day = DAY.matcher(line);
          if (day.matches()) {
            block = new Block(parseDay(day.group(1)), line, new ArrayList<>());
            blocks.add(block);
          } else if (!line.isBlank()) {
            if (block == null) {
              block = new Block(null, null, new ArrayList<>());
              blocks.add(block);
            }
            block.lines().add(line);
          }
        }
      }
    }
    while (!sections.isEmpty() && sections.getLast().isBlank()) {
      sections.removeLast();
    }
    return new MemoryFile(title, index, preamble, sections, blocks);
  }

  private static LocalDate parseDay(String text) {
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** The fact a line of the extracted section holds, or null when it is not one. */
  public static ConsolidationFact parseFact(LocalDate day, String line) {
    return parseFactLine(line)
        .map(f -> new ConsolidationFact(day, f.category(), f.text(), f.confidence(), line))
        .orElse(null);
  }

  /** The facts of the extracted section, in the order written. */
  public List<ConsolidationFact> facts() {
    List<ConsolidationFact> out = new ArrayList<>();
    for (Block b : extracted) {
      for (String line : b.lines()) {
        ConsolidationFact f = parseFact(b.day(), line);
        if (f != null) {
          out.add(f);
        }
      }
    }
    return out;
  }

  /** The lines of the extracted section that are not facts. */
  public List<Unparsed> unparsed() {
    List<Unparsed> out = new ArrayList<>();
    for (Block b : extracted) {
      for (String line : b.lines()) {
        if (parseFact(b.day(), line) == null) {
          out.add(new Unparsed(b.day(), line));
        }
      }
    }
    return out;
  }

  /** The file as text: title, index, preamble, other sections, then the extracted section. */
  public String render() {
    return String.join("\n", lines()) + "\n";
  }

  /** The file's lines, as {@link #render} writes them. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    if (title != null) {
      out.add(title);
    }
    if (!index.isEmpty()) {
      blankBefore(out);
      index.forEach(e -> out.add(e.line()));
    }
    if (!preamble.isEmpty()) {
      blankBefore(out);
      out.addAll(preamble);
    }
    if (!sections.isEmpty()) {
      blankBefore(out);
      out.addAll(sections);
    }
    boolean anyLines = extracted.stream().anyMatch(b -> !b.lines().isEmpty());
    if (anyLines) {
      blankBefore(out);
      out.add(EXTRACTED_HEADING);
      for (Block b : extracted) {
        if (b.lines().isEmpty()) {
          continue;
        }
        if (b.heading() != null) {
          out.add("");
          out.add(b.heading());
        } else {
          out.add("");
        }
        out.addAll(b.lines());
      }
    }
    return out;
  }

  private static void blankBefore(List<String> out) {
    if (!out.isEmpty()) {
      out.add("");
    }
  }

  // ------------------------------------------------------------------ fact lines

  /**
   * A fact line's parts as written.
   *
   * @param text the text between the category and the confidence, stripped but otherwise as written
   *     (not shortened or cleaned as {@link ExtractedFact} does)
   */
  record FactLine(FactCategory category, String text, double confidence) {}

  /**
   * The fact of one line ({@code - [preference] text (confidence 0.90)}): empty when the line is
   * not one, its category is none of the five, or its confidence is not from 0 to 1.
   */
  static Optional<FactLine> parseFactLine(String line) {
    Matcher m = FACT.matcher(line);
    if (!m.matches()) {
      return Optional.empty();
    }
    Optional<FactCategory> category = FactCategory.fromLabel(m.group(1));
    double confidence = Double.parseDouble(m.group(3));
    if (category.isEmpty() || confidence > 1.0) {
      return Optional.empty();
    }
    return Optional.of(new FactLine(category.get(), m.group(2).strip(), confidence));
  }

  /** Every fact line of a {@code MEMORY.md} text, in file order, as extraction reads them. */
  static List<ExtractedFact> parseFacts(String content) {
    List<ExtractedFact> facts = new ArrayList<>();
    for (String line : content.lines().toList()) {
      Optional<FactLine> fact = parseFactLine(line);
      if (fact.isEmpty()) {
        continue;
      }
      try {
        facts.add(
            new ExtractedFact(fact.get().category(), fact.get().text(), fact.get().confidence()));
      } catch (IllegalArgumentException e) {
        // a text that is empty once cleaned: not a fact Legio wrote
      }
    }
    return facts;
  }

  // ------------------------------------------------------------------ appending

  /**
   * {@code content} with {@code facts} appended under the day's heading, every other line kept (see
   * the class comment).
   */
  static String appendFacts(
      String content, String agent, LocalDate day, List<ExtractedFact> facts) {
    List<String> lines = new ArrayList<>(content.lines().toList());
    String heading = DAY_HEADING + day;
    List<String> factLines = facts.stream().map(ExtractedFact::line).toList();
    if (content.isBlank()) {
      lines.clear();
      lines.add("# Memory — " + agent);
    }
    int section = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().equals(EXTRACTED_HEADING)) {
        section = i;
      }
    }
    if (section < 0) {
      trimTrailingBlanks(lines);
      lines.add("");
      lines.add(EXTRACTED_HEADING);
      lines.add("");
      lines.add(heading);
      lines.addAll(factLines);
      return String.join("\n", lines) + "\n";
    }
    // The section runs to the next heading of level 1 or 2, or to the end.
    int end = lines.size();
    for (int i = section + 1; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.startsWith("# ") || l.startsWith("## ")) {
        end = i;
        break;
      }
    }
    int lastHeading = -1;
    for (int i = section + 1; i < end; i++) {
      if (lines.get(i).startsWith("### ")) {
        lastHeading = i;
      }
    }
    int lastContent = section;
    for (int i = end - 1; i > section; i--) {
      if (!lines.get(i).isBlank()) {
        lastContent = i;
        break;
      }
    }
    List<String> insert = new ArrayList<>();
    if (lastHeading < 0 || !lines.get(lastHeading).strip().equals(heading)) {
      insert.add("");
      insert.add(heading);
    }
    insert.addAll(factLines);
    boolean followed = end < lines.size();
    if (followed) {
      insert.add("");
    }
    // Drop the blank lines between the section's content and what follows; the insert ends with
    // its own blank line when something follows.
    lines.subList(lastContent + 1, end).clear();
    lines.addAll(lastContent + 1, insert);
    return String.join("\n", lines) + "\n";
  }

  private static void trimTrailingBlanks(List<String> lines) {
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
      lines.remove(lines.size() - 1);
    }
  }
}
