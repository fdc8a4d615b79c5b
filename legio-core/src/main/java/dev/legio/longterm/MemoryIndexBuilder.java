package dev.legio.longterm;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code MEMORY.md} a consolidation leaves: an index of the agent's topic files, then the facts
 * it did not consolidate. Pure: it reads and writes no file (the runner writes what it returns, and
 * {@value CategoryFiling#UNSORTED} when free text moved there).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The title is kept ({@code # Memory — agent} when there is none).
 *   <li>The index has one entry per topic file that will exist ({@link TopicFiles#existing()}): the
 *       existing index's order first, with its title and hook (the hook this run wrote, if any),
 *       then new files by name, titled by this run, by their category, or by their first {@code # }
 *       heading (else their name). Pointers to missing files and repeats are dropped.
 *   <li>The extracted section loses the lines this run consolidated, each matched once by its day
 *       and text: facts appended meanwhile stay.
 *   <li>Over {@code index_max_lines}: the free text (lines before the first section, other {@code
 *       ##} sections) moves to {@value CategoryFiling#UNSORTED} first; if still over, the index's
 *       tail becomes one {@code More topics} entry, with a warning.
 * </ul>
 */
final class MemoryIndexBuilder {
  private MemoryIndexBuilder() {}

  /**
   * What {@link #build} made.
   *
   * @param file the new {@code MEMORY.md}
   * @param movedToUnsorted whether free text was moved to {@value CategoryFiling#UNSORTED} (now in
   *     {@link TopicFiles#written}, to write before the index)
   * @param warnings what the user should know
   */
  record Built(MemoryFile file, boolean movedToUnsorted, List<String> warnings) {}

  /**
   * The new {@code MEMORY.md} from {@code now} (the file as it is at the end of the run).
   *
   * @param facts the facts this run consolidated
   * @param unparsed the lines of the extracted section this run filed in {@code unsorted.md}
   * @param maxLines {@code index_max_lines}
   */
  static Built build(
      String agent,
      MemoryFile now,
      List<ConsolidationFact> facts,
      List<MemoryFile.Unparsed> unparsed,
      TopicFiles topics,
      int maxLines) {
    List<String> warnings = new ArrayList<>();
    List<MemoryFile.Block> remaining = remaining(now, facts, unparsed);
    List<MemoryFile.IndexEntry> index = index(now, topics);
    String title = now.title() != null ? now.title() : "# Memory — " + agent;
    MemoryFile out = new MemoryFile(title, index, now.preamble(), now.sections(), remaining);
    boolean moved = false;
    if (out.lines().size() > maxLines && (!now.preamble().isEmpty() || !now.sections().isEmpty())) {
      // Move the free text to unsorted.md; the index and new facts stay.
      StringBuilder text =
          new StringBuilder("\n## Moved from MEMORY.md (over ")
              .append(maxLines)
              .append(" lines)\n\n");
      now.preamble().forEach(l -> text.append(l).append('\n'));
      if (!now.sections().isEmpty()) {
        text.append('\n');
        now.sections().forEach(l -> text.append(l).append('\n'));
      }
      CategoryFiling.appendUnsorted(text.toString(), topics);
      moved = true;
      index = index(now, topics);
      out = new MemoryFile(title, index, List.of(), List.of(), remaining);
    }
    int over = out.lines().size() - maxLines;
    if (over > 0 && !index.isEmpty()) {
      int keep = Math.max(0, index.size() - over - 1);
      List<MemoryFile.IndexEntry> shown = new ArrayList<>(index.subList(0, keep));
      shown.add(
          new MemoryFile.IndexEntry(
              "More topics",
              "#",
              (index.size() - keep) + " more topic files in this folder are not listed"));
      warnings.add(
          "MEMORY.md would pass "
              + maxLines
              + " lines: "
              + (index.size() - keep)
              + " topic files are left out of the index (merge some)");
      out = new MemoryFile(title, shown, out.preamble(), out.sections(), remaining);
    }
    return new Built(out, moved, List.copyOf(warnings));
  }

  /** The extracted section without the lines consumed (each once, by day and text). */
  private static List<MemoryFile.Block> remaining(
      MemoryFile now, List<ConsolidationFact> facts, List<MemoryFile.Unparsed> unparsed) {
    Map<String, Integer> consumed = new HashMap<>();
    facts.forEach(f -> consumed.merge(key(f.day(), f.line()), 1, Integer::sum));
    unparsed.forEach(u -> consumed.merge(key(u.day(), u.line()), 1, Integer::sum));
    List<MemoryFile.Block> remaining = new ArrayList<>();
    for (MemoryFile.Block b : now.extracted()) {
      List<String> kept = new ArrayList<>();
      for (String line : b.lines()) {
        String k = key(b.day(), line);
        Integer n = consumed.get(k);
        if (n != null && n > 0) {
          consumed.put(k, n - 1);
        } else {
          kept.add(line);
        }
      }
      if (!kept.isEmpty()) {
        remaining.add(new MemoryFile.Block(b.day(), b.heading(), kept));
      }
    }
    return remaining;
  }

  private static String key(LocalDate day, String line) {
    return day + "\u0000" + line;
  }

  /** The index entries, as the class comment says. */
  static List<MemoryFile.IndexEntry> index(MemoryFile now, TopicFiles topics) {
    Set<String> exists = topics.existing();
    List<MemoryFile.IndexEntry> out = new ArrayList<>();
    Set<String> listed = new HashSet<>();
    for (MemoryFile.IndexEntry e : now.index()) {
      if (exists.contains(e.file()) && listed.add(e.file())) {
        ConsolidationTopic t = topics.written.get(e.file());
        out.add(
            t != null && !t.hook().isEmpty()
                ? new MemoryFile.IndexEntry(e.title(), e.file(), t.hook())
                : e);
      }
    }
    for (String name : exists) {
      if (listed.add(name)) {
        out.add(entryFor(name, topics));
      }
    }
    return out;
  }

  private static MemoryFile.IndexEntry entryFor(String name, TopicFiles topics) {
    ConsolidationTopic t = topics.written.get(name);
    if (t != null) {
      return new MemoryFile.IndexEntry(t.title(), name, t.hook());
    }
    for (FactCategory c : FactCategory.values()) {
      if (c.topicFile().equals(name)) {
        return new MemoryFile.IndexEntry(c.topicTitle(), name, c.topicHook());
      }
    }
    String content = topics.read.getOrDefault(name, "");
    String title = name.substring(0, name.length() - 3);
    for (String line : content.split("\n", 20)) {
      if (line.startsWith("# ")) {
        title = line.substring(2);
        break;
      }
    }
    return new MemoryFile.IndexEntry(
        ConsolidationTopic.oneLine(title, ConsolidationTopic.MAX_TITLE_CHARS), name, "");
  }
}
