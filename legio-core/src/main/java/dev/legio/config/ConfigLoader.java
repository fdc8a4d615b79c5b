package dev.legio.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.legio.session.SessionSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
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

  private static final Set<String> TOP =
      Set.of(
          "history_window",
          "session_idle_timeout_minutes",
          "praetorium",
          "logging",
          "sessions",
          "channels",
          "backend",
          "mcp",
          "transcripts",
          "context",
          "memory");
  private static final Set<String> SESSIONS =
      Set.of(
          "max_input_tokens",
          "reaper_interval_seconds",
          "lock_wait_seconds",
          "lock_lease_minutes",
          "cleanup_at",
          "shutdown_grace_seconds",
          "ttl_days");
  private static final Set<String> TTL_KEYS =
      Set.of("default", "offline", "claude-cli", "anthropic", "openai", "ollama");
  private static final Set<String> CHANNELS =
      Set.of(
          "max_sessions",
          "idle_timeout_minutes",
          "cleanup_interval_minutes",
          "context_threshold_tokens",
          "roles");
  private static final Set<String> BACKEND =
      Set.of(
          "kind",
          "model",
          "base_url",
          "api_key_env",
          "connect_timeout_seconds",
          "request_timeout_seconds",
          "max_retries",
          "max_output_tokens",
          "summarise_after_tokens",
          "count_tokens",
          "keep_alive",
          "context_windows",
          "claude_cli");
  private static final String[] KINDS = {
    "auto", "offline", "claude-cli", "anthropic", "openai", "ollama"
  };
  private static final Set<String> MCP =
      Set.of("http_enabled", "http_bind", "http_port", "allowed_origins");
  private static final Set<String> CLAUDE_CLI =
      Set.of(
          "binary",
          "mode",
          "permission_mode",
          "allowed_tools",
          "turn_timeout_seconds",
          "mcp_config");
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
  private static final Set<String> TRANSCRIPTS = Set.of("dir");
  private static final Set<String> CONTEXT =
      Set.of(
          "auto_compact",
          "compact_threshold",
          "tool_result_budget",
          "keep_recent_messages",
          "max_compaction_failures");
  private static final Set<String> MEMORY =
      Set.of(
          "dir",
          "extraction",
          "extraction_min_messages",
          "extraction_min_tool_calls",
          "dream_min_hours",
          "dream_min_sessions",
          "dream_lock_stale_minutes",
          "index_max_lines");

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

    SessionSettings sessions = sessions(root, historyWindow);
    LegioConfig.Backend backend = backend(root);
    LegioConfig.ClaudeCli claudeCli = claudeCli(table(root, "backend"), base);
    ObjectNode transcriptsTable = table(root, "transcripts");
    checkKeys(transcriptsTable, TRANSCRIPTS, "[transcripts] ");
    Path transcriptsDir =
        base.resolve(string(transcriptsTable, "[transcripts] ", "dir", "castra/transcripts"));

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
        new LegioConfig.Logging(level, logFile.normalize()),
        sessions,
        backend,
        claudeCli,
        mcp(root),
        new LegioConfig.Transcripts(transcriptsDir.normalize()),
        context(root),
        memory(root, base));
  }

  private LegioConfig.Context context(ObjectNode root) {
    LegioConfig.Context d = LegioConfig.Context.defaults();
    ObjectNode c = table(root, "context");
    String section = "[context] ";
    checkKeys(c, CONTEXT, section);
    return new LegioConfig.Context(
        bool(c, section, "auto_compact", d.autoCompact()),
        fraction(c, section, "compact_threshold", d.compactThreshold()),
        (int) integer(c, section, "tool_result_budget", d.toolResultBudget(), 1_000, 100_000_000),
        (int) integer(c, section, "keep_recent_messages", d.keepRecentMessages(), 1, 10_000),
        (int) integer(c, section, "max_compaction_failures", d.maxCompactionFailures(), 1, 100));
  }

  private LegioConfig.Memory memory(ObjectNode root, Path base) {
    ObjectNode m = table(root, "memory");
    String section = "[memory] ";
    checkKeys(m, MEMORY, section);
    LegioConfig.Memory d =
        LegioConfig.Memory.defaults(
            base.resolve(string(m, section, "dir", "castra/memory")).normalize());
    return new LegioConfig.Memory(
        d.dir(),
        bool(m, section, "extraction", d.extraction()),
        (int) integer(m, section, "extraction_min_messages", d.extractionMinMessages(), 1, 100_000),
        (int)
            integer(
                m, section, "extraction_min_tool_calls", d.extractionMinToolCalls(), 0, 100_000),
        (int) integer(m, section, "dream_min_hours", d.dreamMinHours(), 0, 100_000),
        (int) integer(m, section, "dream_min_sessions", d.dreamMinSessions(), 0, 100_000),
        Duration.ofMinutes(
            integer(
                m,
                section,
                "dream_lock_stale_minutes",
                d.dreamLockStale().toMinutes(),
                1,
                100_000)),
        (int) integer(m, section, "index_max_lines", d.indexMaxLines(), 10, 100_000));
  }

  private boolean bool(ObjectNode table, String section, String key, boolean fallback) {
    JsonNode node = table.get(key);
    if (node == null) {
      return fallback;
    }
    if (!node.isBoolean()) {
      throw error(section, key, "true or false", describe(node));
    }
    return node.asBoolean();
  }

  /** A number above 0 and at most 1. */
  private double fraction(ObjectNode table, String section, String key, double fallback) {
    JsonNode node = table.get(key);
    if (node == null) {
      return fallback;
    }
    if (!node.isNumber() || node.asDouble() <= 0 || node.asDouble() > 1) {
      throw error(section, key, "a number above 0 and at most 1 (e.g. 0.9)", describe(node));
    }
    return node.asDouble();
  }

  private LegioConfig.Mcp mcp(ObjectNode root) {
    LegioConfig.Mcp d = LegioConfig.Mcp.defaults();
    ObjectNode m = table(root, "mcp");
    checkKeys(m, MCP, "[mcp] ");
    boolean enabled = d.httpEnabled();
    JsonNode node = m.get("http_enabled");
    if (node != null) {
      if (!node.isBoolean()) {
        throw error("[mcp] ", "http_enabled", "true or false", describe(node));
      }
      enabled = node.asBoolean();
    }
    String bind = string(m, "[mcp] ", "http_bind", d.httpBind());
    if (bind.isBlank()) {
      throw error("[mcp] ", "http_bind", "an address such as \"127.0.0.1\"", "\"\"");
    }
    int port = (int) integer(m, "[mcp] ", "http_port", d.httpPort(), 0, 65_535);
    List<String> origins = strings(m, "[mcp] ", "allowed_origins");
    for (String origin : origins) {
      if (!origin.matches("https?://[^/\\s]+")) {
        throw error(
            "[mcp] ",
            "allowed_origins",
            "origins such as \"https://console.example.com\" (scheme://host[:port], no path)",
            "\"" + origin + "\"");
      }
    }
    return new LegioConfig.Mcp(enabled, bind, port, origins);
  }

  private LegioConfig.Backend backend(ObjectNode root) {
    ObjectNode b = table(root, "backend");
    String section = "[backend] ";
    checkKeys(b, BACKEND, section);
    LegioConfig.Backend d = LegioConfig.Backend.of(LegioConfig.Backend.AUTO);
    String kind = choice(b, section, "kind", d.kind(), KINDS);
    String model = string(b, section, "model", d.model()).strip();
    String baseUrl = string(b, section, "base_url", d.baseUrl()).strip();
    if (!baseUrl.isEmpty() && !baseUrl.matches("(?i)https?://\\S+")) {
      throw error(
          section, "base_url", "an http:// or https:// URL, or \"\"", "\"" + baseUrl + "\"");
    }
    String keyEnv = string(b, section, "api_key_env", d.apiKeyEnv()).strip();
    long connect =
        integer(b, section, "connect_timeout_seconds", d.connectTimeout().toSeconds(), 1, 600);
    long request =
        integer(b, section, "request_timeout_seconds", d.requestTimeout().toSeconds(), 1, 86_400);
    int retries = (int) integer(b, section, "max_retries", d.maxRetries(), 0, 10);
    int maxOutput =
        (int) integer(b, section, "max_output_tokens", d.maxOutputTokens(), 1, 1_000_000);
    long summarise =
        integer(b, section, "summarise_after_tokens", d.summariseAfterTokens(), 0, 100_000_000);
    JsonNode count = b.get("count_tokens");
    if (count != null && !count.isBoolean()) {
      throw error(section, "count_tokens", "true or false", describe(count));
    }
    boolean countTokens = count != null ? count.asBoolean() : d.countTokens();
    String keepAlive = string(b, section, "keep_alive", d.keepAlive()).strip();
    if (!keepAlive.matches("-?\\d+[smh]?|-1")) {
      throw error(
          section,
          "keep_alive",
          "a duration like \"5m\", \"1h\", \"0\" or \"-1\"",
          "\"" + keepAlive + "\"");
    }
    ObjectNode windowTable = tableIn(b, "context_windows", "[backend.context_windows]");
    Map<String, Integer> windows = new java.util.TreeMap<>();
    for (Iterator<String> names = windowTable.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      windows.put(
          name,
          (int) integer(windowTable, "[backend.context_windows] ", name, 0, 1_000, 100_000_000));
    }
    String variable = LegioConfig.Backend.apiKeyVariable(keyEnv, kind);
    String key = variable == null ? null : env.get(variable);
    return new LegioConfig.Backend(
        kind,
        model,
        baseUrl,
        keyEnv,
        key == null || key.isBlank() ? null : key.strip(),
        Duration.ofSeconds(connect),
        Duration.ofSeconds(request),
        retries,
        maxOutput,
        summarise,
        Map.copyOf(windows),
        keepAlive,
        countTokens);
  }

  private LegioConfig.ClaudeCli claudeCli(ObjectNode backendTable, Path base) {
    String section = "[backend.claude_cli] ";
    ObjectNode t = tableIn(backendTable, "claude_cli", "[backend.claude_cli]");
    checkKeys(t, CLAUDE_CLI, section);
    String binary = string(t, section, "binary", "claude");
    if (binary.isBlank()) {
      throw error(section, "binary", "a path or a command name", "\"\"");
    }
    if (binary.contains("/")) {
      binary = base.resolve(binary).normalize().toString();
    }
    String mode = choice(t, section, "mode", "persistent", "persistent", "per_turn");
    String permission =
        choice(
            t,
            section,
            "permission_mode",
            "default",
            "default",
            "acceptedits",
            "bypasspermissions",
            "plan",
            "dontask");
    List<String> allowed = strings(t, section, "allowed_tools");
    long timeout = integer(t, section, "turn_timeout_seconds", 600, 1, 86_400);
    String mcp = string(t, section, "mcp_config", "");
    return new LegioConfig.ClaudeCli(
        binary,
        mode.equals("per_turn"),
        PERMISSION_MODES.get(permission),
        allowed,
        Duration.ofSeconds(timeout),
        mcp.isBlank() ? null : base.resolve(mcp).normalize());
  }

  /** The CLI's spelling of each permission mode (the config accepts any case). */
  private static final Map<String, String> PERMISSION_MODES =
      Map.of(
          "default", "default",
          "acceptedits", "acceptEdits",
          "bypasspermissions", "bypassPermissions",
          "plan", "plan",
          "dontask", "dontAsk");

  private List<String> strings(ObjectNode table, String section, String key) {
    JsonNode node = table.get(key);
    if (node == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    if (node.isArray()) {
      for (JsonNode item : node) {
        if (!item.isTextual() || item.asText().isBlank()) {
          throw error(section, key, "an array of non-empty strings", describe(node));
        }
        out.add(item.asText());
      }
      return List.copyOf(out);
    }
    throw error(
        section, key, "an array of strings, e.g. [\"Read\", \"mcp__memoria\"]", describe(node));
  }

  private SessionSettings sessions(ObjectNode root, int historyWindow) {
    SessionSettings d = SessionSettings.defaults();
    long idleMinutes =
        integer(root, "", "session_idle_timeout_minutes", d.idleTimeout().toMinutes(), 1, 10_080);
    ObjectNode s = table(root, "sessions");
    checkKeys(s, SESSIONS, "[sessions] ");
    String section = "[sessions] ";
    long maxInput = integer(s, section, "max_input_tokens", d.maxInputTokens(), 1_000, 100_000_000);
    long reaper =
        integer(s, section, "reaper_interval_seconds", d.reaperInterval().toSeconds(), 1, 86_400);
    long lockWait = integer(s, section, "lock_wait_seconds", d.lockWait().toSeconds(), 0, 3_600);
    long lease = integer(s, section, "lock_lease_minutes", d.leaseDuration().toMinutes(), 1, 1_440);
    long grace =
        integer(s, section, "shutdown_grace_seconds", d.shutdownGrace().toSeconds(), 0, 3_600);
    String at = string(s, section, "cleanup_at", "02:00");
    LocalTime cleanupAt;
    try {
      cleanupAt = LocalTime.parse(at);
    } catch (DateTimeParseException e) {
      throw error(section, "cleanup_at", "a time of day in UTC as \"HH:MM\"", "\"" + at + "\"");
    }
    ObjectNode ttlTable = tableIn(s, "ttl_days", "[sessions.ttl_days]");
    checkKeys(ttlTable, TTL_KEYS, "[sessions.ttl_days] ");
    Map<String, Duration> ttls = new HashMap<>(d.ttlByBackend());
    for (String key : TTL_KEYS) {
      if (ttlTable.has(key)) {
        ttls.put(
            key, Duration.ofDays(integer(ttlTable, "[sessions.ttl_days] ", key, 30, 1, 3_650)));
      }
    }

    SessionSettings.Channels dc = d.channels();
    ObjectNode c = table(root, "channels");
    checkKeys(c, CHANNELS, "[channels] ");
    String cs = "[channels] ";
    int maxSessions = (int) integer(c, cs, "max_sessions", dc.maxSessions(), 1, 100_000);
    long channelIdle =
        integer(c, cs, "idle_timeout_minutes", dc.idleTimeout().toMinutes(), 1, 10_080);
    long cleanup =
        integer(c, cs, "cleanup_interval_minutes", dc.cleanupInterval().toMinutes(), 1, 1_440);
    long threshold =
        integer(c, cs, "context_threshold_tokens", dc.contextThresholdTokens(), 1_000, 100_000_000);
    ObjectNode rolesTable = tableIn(c, "roles", "[channels.roles]");
    Map<String, String> roles = new HashMap<>(dc.roleBySource());
    for (Iterator<String> names = rolesTable.fieldNames(); names.hasNext(); ) {
      String source = names.next();
      if (!source.matches("[a-z][a-z0-9_-]{0,31}")) {
        throw new ConfigException(
            file
                + ": [channels.roles] '"
                + source
                + "' is not a valid source name (lowercase letters, digits, - and _)");
      }
      roles.put(
          source, choice(rolesTable, "[channels.roles] ", source, "chat", "operator", "chat"));
    }
    return new SessionSettings(
        historyWindow,
        maxInput,
        Duration.ofMinutes(idleMinutes),
        Duration.ofSeconds(reaper),
        Duration.ofMinutes(lease),
        Duration.ofSeconds(lockWait),
        Map.copyOf(ttls),
        cleanupAt,
        Duration.ofSeconds(grace),
        new SessionSettings.Channels(
            maxSessions,
            Duration.ofMinutes(channelIdle),
            Duration.ofMinutes(cleanup),
            threshold,
            Map.copyOf(roles)));
  }

  private ObjectNode tableIn(ObjectNode parent, String name, String display) {
    JsonNode node = parent.get(name);
    if (node == null) {
      return parent.objectNode();
    }
    if (!node.isObject()) {
      throw new ConfigException(
          file + ": " + display + " must be a table (" + display + "), got " + describe(node));
    }
    return (ObjectNode) node;
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
