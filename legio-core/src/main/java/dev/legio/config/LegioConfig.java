package dev.legio.config;

import dev.legio.session.SessionSettings;
import java.nio.file.Path;

/**
 * Legio's configuration, read from {@code legio.toml} (see the template written by {@code legio
 * init} for every key with its documentation and default). Paths are absolute, resolved against the
 * folder of the file.
 */
public record LegioConfig(
    int historyWindow,
    Praetorium praetorium,
    Logging logging,
    SessionSettings sessions,
    Backend backend,
    Transcripts transcripts) {

  /**
   * The {@code [transcripts]} section: where sessions' transcripts are written.
   *
   * @param dir the transcripts folder; each working directory gets a folder in it, named as Claude
   *     Code names its project folders
   */
  public record Transcripts(Path dir) {}

  /**
   * The {@code [backend]} section: which model back-end agents talk to.
   *
   * @param kind {@code offline} (the built-in model; the only kind in this release)
   */
  public record Backend(String kind) {}

  /** Where the message log is stored. */
  public enum Store {
    SQLITE,
    POSTGRES
  }

  /**
   * The {@code [praetorium]} section.
   *
   * @param postgresPassword the password read from the environment variable named by {@code
   *     postgres_password_env}; null when unset. Never logged or shown.
   */
  public record Praetorium(
      Store store,
      Path sqlitePath,
      boolean sqliteFullSync,
      String postgresUrl,
      String postgresUser,
      String postgresPassword,
      int poolSize,
      long maxMessageBytes) {

    @Override
    public String toString() {
      return "Praetorium[store=%s, sqlitePath=%s, sqliteFullSync=%s, postgresUrl=%s, postgresUser=%s, poolSize=%d, maxMessageBytes=%d]"
          .formatted(
              store,
              sqlitePath,
              sqliteFullSync,
              postgresUrl,
              postgresUser,
              poolSize,
              maxMessageBytes);
    }
  }

  /** The {@code [logging]} section. */
  public record Logging(String level, Path file) {}
}
