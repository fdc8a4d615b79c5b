package dev.legio.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One table of {@code legio.toml} (as Jackson's TOML parser read it), read key by key by the
 * section record it configures.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Each read names its key, its default (taken from the record's {@code defaults()}) and what
 *       it accepts; a missing key gives the default, a wrong type or a value out of range is a
 *       {@link ConfigException} naming the file, the table, the key, what was expected and what was
 *       found. TOML's {@code nan}, {@code inf} and {@code -inf} are no number a key accepts: a NaN
 *       would pass every range check (no comparison with it is true).
 *   <li>The table remembers every key a record asked for. The keys are known from what the records
 *       read, not from a list kept beside them: after the whole file is read, {@link
 *       #rejectUnknownKeys()} reports the first table (in reading order) holding a key nobody asked
 *       for, listing the keys that were. So a record must ask for each of its keys whatever the
 *       values of the others.
 *   <li>Tables are shared: asking twice for the same sub-table gives the same {@code TomlTable}
 *       (two records may read one table, like {@code [backend]}).
 * </ul>
 */
final class TomlTable {
  private final Path file;
  private final ObjectNode node;

  /** The table's dotted path ({@code "backend.claude_cli"}); empty for the top level. */
  private final String path;

  /** Every table of the document read so far, in reading order (shared by all its tables). */
  private final Map<String, TomlTable> tables;

  private final Set<String> asked = new TreeSet<>();

  /** Keys still accepted but no longer read (see {@link #retired}): not unknown, not documented. */
  private final Set<String> retired = new TreeSet<>();

  /** Whether the table's keys are names rather than fixed keys (see {@link #keys()}). */
  private boolean open;

  private TomlTable(Path file, ObjectNode node, String path, Map<String, TomlTable> tables) {
    this.file = file;
    this.node = node;
    this.path = path;
    this.tables = tables;
    tables.put(path, this);
  }

  /** The top level of the document {@code file}, parsed into {@code root}. */
  static TomlTable document(Path file, ObjectNode root) {
    return new TomlTable(file, root, "", new LinkedHashMap<>());
  }

  /** The sub-table {@code name}: an empty one when absent, an error when not a table. */
  TomlTable table(String name) {
    asked.add(name);
    String childPath = path.isEmpty() ? name : path + "." + name;
    TomlTable known = tables.get(childPath);
    if (known != null) {
      return known;
    }
    JsonNode child = node.get(name);
    if (child == null) {
      return new TomlTable(file, node.objectNode(), childPath, tables);
    }
    if (!child.isObject()) {
      String shown = path.isEmpty() ? name : "[" + childPath + "]";
      throw new ConfigException(
          file + ": " + shown + " must be a table ([" + childPath + "]), got " + describe(child));
    }
    return new TomlTable(file, (ObjectNode) child, childPath, tables);
  }

  /**
   * Reports the first table holding a key no record asked for (a misspelt key must not be ignored
   * silently). Call once, after the whole document has been read.
   */
  void rejectUnknownKeys() {
    for (TomlTable table : tables.values()) {
      for (Iterator<String> names = table.node.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!table.asked.contains(name) && !table.retired.contains(name)) {
          throw new ConfigException(
              file
                  + ": "
                  + table.section()
                  + "unknown key '"
                  + name
                  + "'; known keys here: "
                  + String.join(", ", table.asked));
        }
      }
    }
  }

  /**
   * The keys this table holds, each counted as asked for: for open tables whose keys are names
   * ({@code [backend.context_windows]}, {@code [channels.roles]}).
   */
  List<String> keys() {
    List<String> keys = new ArrayList<>();
    node.fieldNames().forEachRemaining(keys::add);
    asked.addAll(keys);
    open = true;
    return keys;
  }

  /**
   * The fixed keys asked for so far, by table ({@code ""} for the top level, {@code
   * "backend.claude_cli"}); open tables are left out. After reading an empty document these are all
   * the keys a file may hold.
   */
  Map<String, Set<String>> keysRead() {
    Map<String, Set<String>> out = new LinkedHashMap<>();
    tables.forEach(
        (name, table) -> {
          if (!table.open) {
            out.put(name, Set.copyOf(table.asked));
          }
        });
    return out;
  }

  /**
   * Whether the retired key {@code key} is present: a key older files may still hold, accepted (not
   * an unknown key) but no longer read nor documented in the template; the caller says what
   * replaced it.
   */
  boolean retired(String key) {
    retired.add(key);
    return node.has(key);
  }

  /** The file the table was read from. */
  Path file() {
    return file;
  }

  /** Whether {@code key} is present (it counts as asked for). */
  boolean has(String key) {
    asked.add(key);
    return node.has(key);
  }

  long integer(String key, long fallback, long min, long max) {
    JsonNode value = get(key);
    if (value == null) {
      return fallback;
    }
    if (!value.isIntegralNumber() || value.asLong() < min || value.asLong() > max) {
      throw error(key, "an integer from " + min + " to " + max, describe(value));
    }
    return value.asLong();
  }

  String string(String key, String fallback) {
    JsonNode value = get(key);
    if (value == null) {
      return fallback;
    }
    if (!value.isTextual()) {
      throw error(key, "a string in double quotes", describe(value));
    }
    return value.asText();
  }

  /** A path relative to {@code base} (the folder of the file), normalised. */
  Path path(String key, Path base, Path fallback) {
    JsonNode value = get(key);
    return value == null ? fallback : base.resolve(string(key, "")).normalize();
  }

  /** One of {@code allowed} (lower case; the file may use any case), returned in lower case. */
  String choice(String key, String fallback, List<String> allowed) {
    String value = string(key, fallback).toLowerCase(Locale.ROOT);
    if (!allowed.contains(value)) {
      throw error(key, "one of \"" + String.join("\", \"", allowed) + "\"", "\"" + value + "\"");
    }
    return value;
  }

  boolean bool(String key, boolean fallback) {
    JsonNode value = get(key);
    if (value == null) {
      return fallback;
    }
    if (!value.isBoolean()) {
      throw error(key, "true or false", describe(value));
    }
    return value.asBoolean();
  }

  /** A number above 0 and at most 1. */
  double fraction(String key, double fallback) {
    JsonNode value = get(key);
    if (value == null) {
      return fallback;
    }
    if (!isFiniteNumber(value) || value.asDouble() <= 0 || value.asDouble() > 1) {
      throw error(key, "a number above 0 and at most 1 (e.g. 0.9)", describe(value));
    }
    return value.asDouble();
  }

  /**
   * A number of 0 or more, exactly as written ({@code 0.075} stays 0.075, not the nearest double).
   */
  BigDecimal decimal(String key, BigDecimal fallback) {
    JsonNode value = get(key);
    if (value == null) {
      return fallback;
    }
    BigDecimal number = isFiniteNumber(value) ? new BigDecimal(value.asText()) : null;
    if (number == null || number.signum() < 0) {
      throw error(key, "a number of 0 or more (e.g. 2.50)", describe(value));
    }
    return number;
  }

  /** An array of non-empty strings; absent: empty. */
  List<String> strings(String key, String example) {
    JsonNode value = get(key);
    if (value == null) {
      return List.of();
    }
    if (!value.isArray()) {
      throw error(key, "an array of strings, e.g. " + example, describe(value));
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : value) {
      if (!item.isTextual() || item.asText().isBlank()) {
        throw error(key, "an array of non-empty strings", describe(value));
      }
      out.add(item.asText());
    }
    return List.copyOf(out);
  }

  /** An array of integers; absent: empty. */
  List<Long> integers(String key, String example) {
    JsonNode value = get(key);
    if (value == null) {
      return List.of();
    }
    if (!value.isArray()) {
      throw error(key, "an array of integers, e.g. " + example, describe(value));
    }
    List<Long> out = new ArrayList<>();
    for (JsonNode item : value) {
      if (!item.isIntegralNumber()) {
        throw error(key, "an array of integers, e.g. " + example, describe(value));
      }
      out.add(item.asLong());
    }
    return List.copyOf(out);
  }

  /** The error for {@code key}: {@code FILE: [section] key: expected EXPECTED, got GOT}. */
  ConfigException error(String key, String expected, String got) {
    return new ConfigException(
        file + ": " + section() + key + ": expected " + expected + ", got " + got);
  }

  /** An error about this table as a whole: {@code FILE: [section] PROBLEM}. */
  ConfigException problem(String text) {
    return new ConfigException(file + ": " + section() + text);
  }

  /** How messages name this table: {@code "[backend.claude_cli] "}, or nothing at the top. */
  private String section() {
    return path.isEmpty() ? "" : "[" + path + "] ";
  }

  private JsonNode get(String key) {
    asked.add(key);
    return node.get(key);
  }

  /** A number other than TOML's {@code nan}, {@code inf} and {@code -inf}. */
  private static boolean isFiniteNumber(JsonNode value) {
    return value.isNumber()
        && (!value.isFloatingPointNumber() || Double.isFinite(value.asDouble()));
  }

  private static String describe(JsonNode value) {
    if (value.isNumber() && !isFiniteNumber(value)) {
      double d = value.asDouble();
      return Double.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf";
    }
    return value.isTextual() ? "\"" + value.asText() + "\"" : value.toString();
  }
}
