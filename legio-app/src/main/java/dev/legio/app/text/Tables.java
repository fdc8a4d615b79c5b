package dev.legio.app.text;

import java.util.List;

/** Plain-text tables: columns padded to their widest cell, two spaces apart, no trailing blanks. */
public final class Tables {
  private Tables() {}

  public static String format(List<String[]> rows) {
    int columns = rows.get(0).length;
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(String.format("%-" + widths[i] + "s", row[i]));
        if (i < row.length - 1) {
          line.append("  ");
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
