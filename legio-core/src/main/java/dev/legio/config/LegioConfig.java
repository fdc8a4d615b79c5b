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
    Mcp mcp) {

  /**
   * The {@code [mcp]} section: the agents' tools over streamable HTTP from {@code legio serve}.
   *
   * @param httpEnabled whether {@code legio serve} serves MCP over HTTP
   * @param httpBind the address to listen on (default loopback only)
   * @param httpPort the TCP port; 0 picks a free one (printed at start)
   */
  public record Mcp(boolean httpEnabled, String httpBind, int httpPort) {
    public static final int DEFAULT_PORT = 8740;

    public static Mcp defaults() {
      return new Mcp(true, "127.0.0.1", DEFAULT_PORT);
    }
  }

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
