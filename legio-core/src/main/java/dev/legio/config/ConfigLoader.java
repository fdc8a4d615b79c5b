package dev.legio.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads and validates {@code legio.toml}. Every key is optional and defaulted; an unknown key, a
 * wrong type or a value out of range is an error that names the file, the key and what was
 * expected. Environment variables: {@code LEGIO_DB_URL} overrides the store and its URL.
 */
public final class ConfigLoader {
  public static final int DEFAULT_HISTORY_WINDOW = 50;
  public static final long DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;

  private static final Set<String> TOP = Set.of("history_window", "praetorium", "logging");
  private static final Set<String> PRAETORIUM =
      Set.of(
          "store",
          "sqlite_path",
          "sqlite_synchronous",
          "postgres_url",
          "postgres_user",
          "postgres_password_env",
          "pool_size",
          "max_message_bytes");
  private static final Set<String> LOGGING = Set.of("level", "file");

  private final Path file;
  private final Map<String, String> env;

  private ConfigLoader(Path file, Map<String, String> env) {
    this.file = file;
    this.env = env;
  }

  /** Loads {@code file}, with {@code env} as the environment. */
  public static LegioConfig load(Path file, Map<String, String> env) {
    return new ConfigLoader(file, env).load();
  }

  private LegioConfig load() {
    ObjectNode root = parse();
    Path base = file.toAbsolutePath().getParent();
    checkKeys(root, TOP, "");
    ObjectNode praetorium = table(root, "praetorium");
    ObjectNode logging = table(root, "logging");
    checkKeys(praetorium, PRAETORIUM, "[praetorium] ");
    checkKeys(logging, LOGGING, "[logging] ");

    int historyWindow =
        (int) integer(root, "", "history_window", DEFAULT_HISTORY_WINDOW, 0, 10_000);

    LegioConfig.Store store =
        choice(praetorium, "[praetorium] ", "store", "sqlite", "sqlite", "postgres")
                .equals("sqlite")
            ? LegioConfig.Store.SQLITE
            : LegioConfig.Store.POSTGRES;
    Path sqlitePath =
        base.resolve(string(praetorium, "[praetorium] ", "sqlite_path", "castra/praetorium.db"));
    boolean fullSync =
        choice(praetorium, "[praetorium] ", "sqlite_synchronous", "normal", "normal", "full")
            .equals("full");
    String postgresUrl =
        string(
            praetorium, "[praetorium] ", "postgres_url", "jdbc:postgresql://127.0.0.1:5432/legio");
    String user = string(praetorium, "[praetorium] ", "postgres_user", "");
    String passwordEnv =
        string(praetorium, "[praetorium] ", "postgres_password_env", "LEGIO_DB_PASSWORD");
    int poolSize = (int) integer(praetorium, "[praetorium] ", "pool_size", 4, 1, 64);
    long maxBytes =
        integer(
            praetorium,
            "[praetorium] ",
            "max_message_bytes",
            DEFAULT_MAX_MESSAGE_BYTES,
            1,
            64L << 20);

    String override = env.get("LEGIO_DB_URL");
    if (override != null && !override.isBlank()) {
      if (override.startsWith("jdbc:postgresql:")) {
        store = LegioConfig.Store.POSTGRES;
        postgresUrl = override;
      } else if (override.startsWith("jdbc:sqlite:")) {
        store = LegioConfig.Store.SQLITE;
        sqlitePath = base.resolve(override.substring("jdbc:sqlite:".length()));
      } else {
        throw new ConfigException(
            "environment variable LEGIO_DB_URL: expected a JDBC URL starting with"
                + " jdbc:postgresql: or jdbc:sqlite:, got '"
                + override.replaceAll("(?i)(password=)[^&;]*", "$1***")
                + "'");
      }
    }
    if (store == LegioConfig.Store.POSTGRES && !postgresUrl.startsWith("jdbc:postgresql:")) {
      throw error(
          "[praetorium] ",
          "postgres_url",
          "a JDBC URL starting with jdbc:postgresql:",
          postgresUrl);
    }
    String password = passwordEnv.isEmpty() ? null : env.get(passwordEnv);

    String level =
        choice(logging, "[logging] ", "level", "info", "error", "warn", "info", "debug", "trace");
    Path logFile = base.resolve(string(logging, "[logging] ", "file", "castra/logs/legio.log"));

    return new LegioConfig(
        historyWindow,
        new LegioConfig.Praetorium(
            store,
            sqlitePath.normalize(),
            fullSync,
            postgresUrl,
            user.isEmpty() ? null : user,
            password,
            poolSize,
            maxBytes),
        new LegioConfig.Logging(level, logFile.normalize()));
  }

  private ObjectNode parse() {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file + " does not exist: create it with `legio init`");
    } catch (IOException e) {
      throw new ConfigException("cannot read " + file + ": " + e.getMessage(), e);
    }
    try {
      JsonNode root = new TomlMapper().readTree(text);
      return root == null || root.isMissingNode()
          ? new TomlMapper().createObjectNode()
          : (ObjectNode) root;
    } catch (JsonProcessingException e) {
      String where =
          e.getLocation() == null
              ? ""
              : " at line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr();
      throw new ConfigException(
          file + " is not valid TOML" + where + ": " + e.getOriginalMessage(), e);
    }
  }

  private ObjectNode table(ObjectNode root, String name) {
    JsonNode node = root.get(name);
    if (node == null) {
      return root.objectNode();
    }
    if (!node.isObject()) {
      throw new ConfigException(
          file + ": " + name + " must be a table ([" + name + "]), got " + describe(node));
    }
    return (ObjectNode) node;
  }

  private void checkKeys(ObjectNode table, Set<String> known, String section) {
    List<String> unknown = new ArrayList<>();
    for (Iterator<String> names = table.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      throw new ConfigException(
          file
              + ": "
              + section
              + "unknown key '"
              + unknown.get(0)
              + "'; known keys here: "
              + String.join(", ", known.stream().sorted().toList()));
    }
  }

  private long integer(
      ObjectNode table, String section, String key, long fallback, long min, long max) {
    JsonNode node = table.get(key);
    if (node == null) {
      return fallback;
    }
    if (!node.isIntegralNumber() || node.asLong() < min || node.asLong() > max) {
      throw error(section, key, "an integer from " + min + " to " + max, describe(node));
    }
    return node.asLong();
  }

  private String string(ObjectNode table, String section, String key, String fallback) {
    JsonNode node = table.get(key);
    if (node == null) {
      return fallback;
    }
    if (!node.isTextual()) {
      throw error(section, key, "a string in double quotes", describe(node));
    }
    return node.asText();
  }

  private String choice(
      ObjectNode table, String section, String key, String fallback, String... allowed) {
    String value = string(table, section, key, fallback).toLowerCase(Locale.ROOT);
    if (!List.of(allowed).contains(value)) {
      throw error(
          section, key, "one of \"" + String.join("\", \"", allowed) + "\"", "\"" + value + "\"");
    }
    return value;
  }

  private ConfigException error(String section, String key, String expected, String got) {
    return new ConfigException(
        file + ": " + section + key + ": expected " + expected + ", got " + got);
  }

  private static String describe(JsonNode node) {
    return node.isTextual() ? "\"" + node.asText() + "\"" : node.toString();
  }
}
