package dev.legio.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code [praetorium]} section.
 *
 * @param postgresPassword the password read from the environment variable named by {@code
 *     postgres_password_env}; null when unset. Never logged or shown.
 */
public record PraetoriumSettings(
    Store store,
    Path sqlitePath,
    boolean sqliteFullSync,
    String postgresUrl,
    String postgresUser,
    String postgresPassword,
    int poolSize,
    long maxMessageBytes) {

  /** Where the message log is stored. */
  public enum Store {
    SQLITE,
    POSTGRES
  }

  public static final long DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;

  /** The defaults; {@code base} is the folder of {@code legio.toml}. */
  public static PraetoriumSettings defaults(Path base) {
    return new PraetoriumSettings(
        Store.SQLITE,
        base.resolve("castra/praetorium.db").normalize(),
        false,
        "jdbc:postgresql://127.0.0.1:5432/legio",
        null,
        null,
        4,
        DEFAULT_MAX_MESSAGE_BYTES);
  }

  /** The environment variable holding the PostgreSQL password, unless the file names another. */
  public static final String DEFAULT_PASSWORD_ENV = "LEGIO_DB_PASSWORD";

  /**
   * Reads {@code [praetorium]}; {@code LEGIO_DB_URL} in {@code env} overrides the store and its
   * URL, and the password comes only from the environment.
   */
  static PraetoriumSettings read(TomlTable t, Path base, Map<String, String> env) {
    PraetoriumSettings d = defaults(base);
    String storeName = d.store().name().toLowerCase(Locale.ROOT);
    Store store =
        t.choice("store", storeName, List.of("sqlite", "postgres")).equals("sqlite")
            ? Store.SQLITE
            : Store.POSTGRES;
    Path sqlitePath = t.path("sqlite_path", base, d.sqlitePath());
    boolean fullSync =
        t.choice("sqlite_synchronous", d.sqliteFullSync() ? "full" : "normal", SYNC_MODES)
            .equals("full");
    String postgresUrl = t.string("postgres_url", d.postgresUrl());
    String user = t.string("postgres_user", "");
    String passwordEnv = t.string("postgres_password_env", DEFAULT_PASSWORD_ENV);
    int poolSize = (int) t.integer("pool_size", d.poolSize(), 1, 64);
    long maxBytes = t.integer("max_message_bytes", d.maxMessageBytes(), 1, 64L << 20);

    PraetoriumSettings read =
        DatabaseUrlOverride.apply(
            new PraetoriumSettings(
                store,
                sqlitePath,
                fullSync,
                postgresUrl,
                user.isEmpty() ? null : user,
                passwordEnv.isEmpty() ? null : env.get(passwordEnv),
                poolSize,
                maxBytes),
            base,
            env);
    if (read.store() == Store.POSTGRES && !read.postgresUrl().startsWith("jdbc:postgresql:")) {
      throw t.error(
          "postgres_url",
          "a JDBC URL starting with jdbc:postgresql:",
          dev.legio.secrets.SecretRedactor.redact(read.postgresUrl()));
    }
    if (read.store() == Store.POSTGRES) {
      String fromEnv = env.get(DatabaseUrlOverride.VARIABLE);
      PostgresUrlUserInfo.refuse(
          read.postgresUrl(),
          fromEnv != null && !fromEnv.isBlank()
              ? "environment variable " + DatabaseUrlOverride.VARIABLE
              : t.problem("postgres_url").getMessage());
    }
    return read;
  }

  private static final List<String> SYNC_MODES = List.of("normal", "full");

  @Override
  public String toString() {
    return "PraetoriumSettings[store=%s, sqlitePath=%s, sqliteFullSync=%s, postgresUrl=%s, postgresUser=%s, poolSize=%d, maxMessageBytes=%d]"
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
