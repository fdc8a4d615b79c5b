package dev.legio.longterm;

import java.util.regex.Pattern;

/**
 * A topic file consolidation writes into an agent's memory folder, with the index line that points
 * to it.
 *
 * <p>Names are plain: lowercase ASCII letters, digits and {@code -}, then {@code .md}, at most
 * {@value #MAX_NAME_LENGTH} characters, never {@code memory.md} ({@link #isValidName}). No name can
 * leave the folder, hide as a dot file, or replace the index.
 *
 * @param name the file name ({@code roads.md})
 * @param title the index's link text: one line
 * @param hook the index's text after the link: one line, possibly empty
 * @param content the whole file
 */
public record ConsolidationTopic(String name, String title, String hook, String content) {
  public static final int MAX_NAME_LENGTH = 64;

  /** The longest topic file consolidation writes, in characters. */
  public static final int MAX_CONTENT_CHARS = 20_000;

  public static final int MAX_TITLE_CHARS = 80;
  public static final int MAX_HOOK_CHARS = 160;

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*\\.md");

  public static boolean isValidName(String name) {
    return name != null
        && name.length() <= MAX_NAME_LENGTH
        && NAME.matcher(name).matches()
        && !name.equalsIgnoreCase(MemoryFile.FILE_NAME);
  }

  /**
   * {@code text} made safe for one index line: controls and line breaks become spaces, brackets and
   * parentheses (which would break the Markdown link) are dropped, spaces collapsed, cut to {@code
   * max} characters.
   */
  public static String oneLine(String text, int max) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .forEach(
            cp -> {
              if (Character.isISOControl(cp) || Character.getType(cp) == Character.LINE_SEPARATOR) {
                out.append(' ');
              } else if (cp != '[' && cp != ']' && cp != '(' && cp != ')') {
                out.appendCodePoint(cp);
              }
            });
    String line = out.toString().replaceAll("\\s+", " ").strip();
    if (line.length() > max) {
      line = line.substring(0, max - 1).strip() + "…";
    }
    return line;
  }
}
