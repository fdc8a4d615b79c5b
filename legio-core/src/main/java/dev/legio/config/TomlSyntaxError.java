package dev.legio.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a {@code legio.toml} that is not valid TOML is told: {@code FILE is not valid TOML at line L,
 * column C: WHAT}, with the line and column Jackson's TOML parser gives.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A key set twice is named, on its own line, with its table: the parser says only "Duplicate
 *       key" and points after the second value (the next line, or past comments and blank lines),
 *       so the line is found in the text: the nearest line at or before that point that sets a key.
 *   <li>A table defined twice names its header, on the line the parser points at.
 *   <li>Anything else keeps the parser's words and position.
 * </ul>
 */
final class TomlSyntaxError {
  private static final String SIMPLE_KEY = "(?:[A-Za-z0-9_-]+|\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*')";
  private static final Pattern KEY_LINE =
      Pattern.compile("^\\s*(" + SIMPLE_KEY + "(?:\\s*\\.\\s*" + SIMPLE_KEY + ")*)\\s*=");
  private static final Pattern HEADER =
      Pattern.compile(
          "^\\s*\\[\\[?\\s*(" + SIMPLE_KEY + "(?:\\s*\\.\\s*" + SIMPLE_KEY + ")*)\\s*\\]\\]?");

  private TomlSyntaxError() {}

  /** The error for {@code failure}, raised parsing {@code text}, the content of {@code file}. */
  static ConfigException of(Path file, String text, JsonProcessingException failure) {
    String what = failure.getOriginalMessage();
    if (failure.getLocation() == null) {
      return new ConfigException(file + " is not valid TOML: " + what, failure);
    }
    int line = failure.getLocation().getLineNr();
    int column = failure.getLocation().getColumnNr();
    String[] lines = text.split("\r?\n", -1);
    if ("Duplicate key".equals(what)) {
      for (int i = Math.min(line, lines.length); i >= 1; i--) {
        String before =
            i == line
                ? lines[i - 1].substring(0, Math.min(lines[i - 1].length(), column - 1))
                : lines[i - 1];
        Matcher key = KEY_LINE.matcher(before);
        if (key.find()) {
          String table = tableAbove(lines, i);
          return new ConfigException(
              file
                  + " is not valid TOML at line "
                  + i
                  + ": the key "
                  + key.group(1)
                  + " is set twice"
                  + (table == null ? "" : " in [" + table + "]")
                  + "; keep one of them",
              failure);
        }
      }
    }
    if ("Table redefined".equals(what) && line >= 1 && line <= lines.length) {
      Matcher header = HEADER.matcher(lines[line - 1]);
      if (header.find()) {
        return new ConfigException(
            file
                + " is not valid TOML at line "
                + line
                + ": the table ["
                + header.group(1)
                + "] is defined twice; merge its keys into one",
            failure);
      }
    }
    return new ConfigException(
        file + " is not valid TOML at line " + line + ", column " + column + ": " + what, failure);
  }

  /** The header of the table that line {@code line} (from 1) belongs to; null at the top. */
  private static String tableAbove(String[] lines, int line) {
    for (int i = line - 1; i >= 1; i--) {
      Matcher header = HEADER.matcher(lines[i - 1]);
      if (header.find()) {
        return header.group(1);
      }
    }
    return null;
  }
}
