package dev.legio.text;

/**
 * Where a byte of a text file stands, for a message that sends someone to it: its line and column,
 * both from 1. Lines end at {@code \n} (a {@code \r} before it is the line's last byte); columns
 * are counted in bytes, as an offset is, not in characters.
 */
public record LineAndColumn(int line, int column) {
  /** Where the byte at {@code offset} of {@code bytes} stands. */
  public static LineAndColumn of(byte[] bytes, int offset) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset; i++) {
      if (bytes[i] == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new LineAndColumn(line, offset - lineStart + 1);
  }

  /** "line L, column C", as a message names the place. */
  @Override
  public String toString() {
    return "line " + line + ", column " + column;
  }
}
