package dev.legio.app.cli;

import java.nio.file.Path;

/**
 * The last line of a page of {@code legio sessions list} when more sessions follow: the command
 * that lists the next page, for the user to paste as it is.
 *
 * <p>Rules: the line repeats every option that selects what is listed, so that the next page comes
 * from the same workspace in pages of the same size: {@code --castra DIR} when the user gave it
 * (the path as given: the line is pasted where the first command ran), {@code --limit N} when the
 * user gave it, then {@code --cursor C}. Each value is a {@link ShellWord}: a path with a space or
 * a shell character comes out quoted, and a POSIX shell passes it on unchanged.
 */
final class MoreLine {
  private MoreLine() {}

  /**
   * {@code More: legio sessions list [--castra DIR] [--limit N] --cursor C}.
   *
   * @param castra the workspace the user named with {@code --castra}; null when none
   * @param limit the page size the user gave with {@code --limit}; null when none
   * @param cursor the next page's cursor
   */
  static String of(Path castra, Integer limit, String cursor) {
    StringBuilder line = new StringBuilder("More: legio sessions list");
    if (castra != null) {
      line.append(" --castra ").append(ShellWord.quote(castra.toString()));
    }
    if (limit != null) {
      line.append(" --limit ").append(limit);
    }
    return line.append(" --cursor ").append(ShellWord.quote(cursor)).toString();
  }
}
