package dev.legio.memory.longterm;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An agent's {@code MEMORY.md} as consolidation reads and rewrites it (the format is in the
 * README's "Long-term memory" section):
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
 * <p>Parsing never fails and loses nothing: lines it does not recognise are kept (before the first
 * {@code ##} heading: {@link #preamble}; other {@code ##} sections: {@link #sections} verbatim;
 * unrecognised lines of the extracted section: {@link #unparsed}).
 *
 * <p>Fact lines are read by {@link MemoryFolder}'s reader, the one extraction uses. This class adds
 * what only consolidation needs: the whole file's structure, to rewrite it as an index.
 */
public record ConsolidationMemoryFile(
    String title,
    List<IndexEntry> index,
    List<String> preamble,
    List<String> sections,
    List<Block> extracted) {

  public static final String FILE_NAME = MemoryFolder.MEMORY_FILE;
  public static final String EXTRACTED_HEADING = MemoryFolder.AUTO_SECTION;

  private static final Pattern INDEX_LINE =
      Pattern.compile("^- \\[(.+?)\\]\\(([^()\\s]+)\\)(?:\\s+[—–-]\\s+(.*))?\\s*$");
  private static final Pattern DAY =
      Pattern.compile("^### Session memories\\s*[—–-]\\s*(\\d{4}-\\d{2}-\\d{2})\\s*$");

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
  public static ConsolidationMemoryFile empty() {
    return new ConsolidationMemoryFile(null, List.of(), List.of(), List.of(), List.of());
  }

  /** Reads the text of a {@code MEMORY.md}. */
  public static ConsolidationMemoryFile parse(String text) {
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
    return new ConsolidationMemoryFile(title, index, preamble, sections, blocks);
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
    return MemoryFolder.parseFactLine(line)
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
}
