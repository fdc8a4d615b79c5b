package dev.legio.transcript;

/**
 * The name of a working directory's folder among the transcripts, as Claude Code names its project
 * folders in {@code ~/.claude/projects} (its {@code sanitizePath}), so that the two share
 * transcripts.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Every UTF-16 unit of the path other than an ASCII letter or digit becomes {@code -} ({@code
 *       /home/me/demo} → {@code -home-me-demo}).
 *   <li>A name longer than {@value #MAX} characters is cut to its first {@value #MAX}, then {@code
 *       -} and the base-36 absolute value of a 32-bit hash of the whole path ({@code h = 31 * h +
 *       unit}, wrapping, over its UTF-16 units): at most 207 characters, under the 255 bytes a file
 *       system allows in a name, so a workspace deep in the file system keeps its transcripts.
 * </ul>
 */
final class ProjectFolderName {
  /** The longest name kept whole. */
  static final int MAX = 200;

  private ProjectFolderName() {}

  static String of(String cwd) {
    StringBuilder out = new StringBuilder(cwd.length());
    for (int i = 0; i < cwd.length(); i++) {
      char c = cwd.charAt(i);
      boolean keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      out.append(keep ? c : '-');
    }
    if (out.length() <= MAX) {
      return out.toString();
    }
    int hash = 0;
    for (int i = 0; i < cwd.length(); i++) {
      hash = 31 * hash + cwd.charAt(i); // (h << 5) - h + unit, wrapping at 32 bits
    }
    return out.substring(0, MAX) + "-" + Long.toString(Math.abs((long) hash), 36);
  }
}
