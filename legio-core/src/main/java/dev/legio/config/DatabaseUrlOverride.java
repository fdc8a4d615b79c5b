package dev.legio.config;

import dev.legio.config.PraetoriumSettings.Store;
import java.nio.file.Path;
import java.util.Map;

/**
 * The environment variable {@code LEGIO_DB_URL} overrides {@code [praetorium] store} and its URL:
 * {@code jdbc:postgresql:...} selects PostgreSQL at that URL, {@code jdbc:sqlite:PATH} selects
 * SQLite at {@code PATH} (relative to the folder of {@code legio.toml}); unset or blank, the file
 * decides. Anything else is refused, with any {@code password=} in it masked.
 */
final class DatabaseUrlOverride {
  static final String VARIABLE = "LEGIO_DB_URL";

  private DatabaseUrlOverride() {}

  /** {@code fromFile} with the store and URL {@code env} names, if it names one. */
  static PraetoriumSettings apply(PraetoriumSettings fromFile, Path base, Map<String, String> env) {
    String url = env.get(VARIABLE);
    if (url == null || url.isBlank()) {
      return fromFile;
    }
    if (url.startsWith("jdbc:postgresql:")) {
      return with(fromFile, Store.POSTGRES, fromFile.sqlitePath(), url);
    }
    if (url.startsWith("jdbc:sqlite:")) {
      Path file = base.resolve(url.substring("jdbc:sqlite:".length())).normalize();
      return with(fromFile, Store.SQLITE, file, fromFile.postgresUrl());
    }
    throw new ConfigException(
        "environment variable "
            + VARIABLE
            + ": expected a JDBC URL starting with jdbc:postgresql: or jdbc:sqlite:, got '"
            + url.replaceAll("(?i)(password=)[^&;]*", "$1***")
            + "'");
  }

  private static PraetoriumSettings with(
      PraetoriumSettings p, Store store, Path sqlitePath, String postgresUrl) {
    return new PraetoriumSettings(
        store,
        sqlitePath,
        p.sqliteFullSync(),
        postgresUrl,
        p.postgresUser(),
        p.postgresPassword(),
        p.poolSize(),
        p.maxMessageBytes());
  }
}
