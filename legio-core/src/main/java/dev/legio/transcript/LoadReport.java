package dev.legio.transcript;

import java.util.Map;

/**
 * What loading a transcript met besides the messages it returned.
 *
 * @param parts files read
 * @param bytes bytes read
 * @param lines complete, well-formed lines of any type
 * @param tombstones tombstone entries
 * @param tombstoned messages left out because a tombstone names them
 * @param metadata lines of types Claude Code writes that are not messages ({@code queue-operation},
 *     {@code last-prompt}, {@code agent-name}, ...): read, not returned
 * @param unknownTypes lines of any other type, skipped, counted per type
 * @param malformedLines lines that are not a JSON object on a line of its own, skipped
 * @param partialLastLine true when a part ended in a line with no newline (a write cut short by a
 *     crash, or one in progress), skipped
 */
public record LoadReport(
    int parts,
    long bytes,
    int lines,
    int tombstones,
    int tombstoned,
    int metadata,
    Map<String, Integer> unknownTypes,
    int malformedLines,
    boolean partialLastLine) {

  /** Lines of unknown types, all types together. */
  public int unknownLines() {
    return unknownTypes.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** True when something was skipped that a user may want to know about. */
  public boolean hasProblems() {
    return malformedLines > 0 || partialLastLine || !unknownTypes.isEmpty();
  }

  /** One line for a human: what was skipped, or "" when nothing was. */
  public String problems() {
    StringBuilder out = new StringBuilder();
    if (malformedLines > 0) {
      out.append(malformedLines).append(" malformed line(s) skipped");
    }
    if (partialLastLine) {
      out.append(out.isEmpty() ? "" : "; ").append("a partial last line skipped");
    }
    if (!unknownTypes.isEmpty()) {
      out.append(out.isEmpty() ? "" : "; ")
          .append(unknownLines())
          .append(" line(s) of unknown types skipped ")
          .append(unknownTypes);
    }
    return out.toString();
  }
}
