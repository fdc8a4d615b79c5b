package dev.legio.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Legio's configuration, read from {@code legio.toml} (see the template written by {@code legio
 * init} for every key with its documentation and default). Paths are absolute, resolved against the
 * folder of the file.
 *
 * <p>One source of truth: each section record holds its defaults ({@code defaults()}) and reads and
 * checks its own keys ({@code read}); the keys a file may hold are the keys the records read (see
 * {@link TomlTable}), so adding a key is one edit in its record plus its documentation in the
 * template. {@link ConfigLoader} parses the file and has each record read its section.
 */
public record LegioConfig(
    int historyWindow,
    PraetoriumSettings praetorium,
    Logging logging,
    SessionSettings sessions,
    Backend backend,
    ClaudeCliSettings claudeCli,
    Mcp mcp,
    Transcripts transcripts,
    Context context,
    Memory memory,
    ServerSettings server,
    UsageSettings usage,
    LegatusSettings legatus,
    MemoriaSettings memoria,
    SlackSettings slack,
    DiscordSettings discord,
    TelegramSettings telegram) {

  /**
   * The {@code [context]} section: how Legio keeps the conversations it sends to the model (the
   * HTTP back-ends) within the model's context window.
   *
   * @param autoCompact summarise older messages when the conversation nears the window
   * @param compactThreshold the share of the model's context window (0 to 1, exclusive of 0) at
   *     which a conversation is compacted before the next turn
   * @param toolResultBudget the characters of tool results a request may carry; beyond it the
   *     oldest results are truncated first
   * @param keepRecentMessages the most recent messages a compaction keeps verbatim
   * @param maxCompactionFailures consecutive failed compactions after which auto-compact is off for
   *     that session
   */
  public record Context(
      boolean autoCompact,
      double compactThreshold,
      int toolResultBudget,
      int keepRecentMessages,
      int maxCompactionFailures) {
    public static Context defaults() {
      return new Context(true, 0.9, 50_000, 10, 3);
    }

    static Context read(TomlTable t) {
      Context d = defaults();
      return new Context(
          t.bool("auto_compact", d.autoCompact()),
          t.fraction("compact_threshold", d.compactThreshold()),
          (int) t.integer("tool_result_budget", d.toolResultBudget(), 1_000, 100_000_000),
          (int) t.integer("keep_recent_messages", d.keepRecentMessages(), 1, 10_000),
          (int) t.integer("max_compaction_failures", d.maxCompactionFailures(), 1, 100));
    }
  }

  /**
   * The {@code [memory]} section: long-term memory files ({@code MEMORY.md} per agent), their
   * automatic extraction from sessions and their consolidation ("dream").
   *
   * @param dir the folder holding one folder per agent ({@code castra/memory/vorenus/MEMORY.md})
   * @param extraction extract durable facts from agents' sessions automatically
   * @param extractionMinMessages messages a session must have before the first extraction
   * @param extractionMinToolCalls tool calls since the last extraction before the next one
   * @param dreamMinHours hours since the last consolidation before the next one
   * @param dreamMinSessions sessions changed since the last consolidation before the next one
   * @param dreamLockStale a consolidation lock not renewed for this long is stale (its holder
   *     renews it every third of this)
   * @param indexMaxLines the longest {@code MEMORY.md} consolidation leaves
   */
  public record Memory(
      Path dir,
      boolean extraction,
      int extractionMinMessages,
      int extractionMinToolCalls,
      int dreamMinHours,
      int dreamMinSessions,
      Duration dreamLockStale,
      int indexMaxLines) {
    /** The default {@code dir}, relative to the folder of {@code legio.toml}. */
    public static final String DEFAULT_DIR = "castra/memory";

    public static Memory defaults(Path dir) {
      return new Memory(dir, true, 20, 3, 24, 5, Duration.ofHours(1), 200);
    }

    static Memory read(TomlTable t, Path base) {
      Memory d = defaults(t.path("dir", base, base.resolve(DEFAULT_DIR).normalize()));
      return new Memory(
          d.dir(),
          t.bool("extraction", d.extraction()),
          (int) t.integer("extraction_min_messages", d.extractionMinMessages(), 1, 100_000),
          (int) t.integer("extraction_min_tool_calls", d.extractionMinToolCalls(), 0, 100_000),
          (int) t.integer("dream_min_hours", d.dreamMinHours(), 0, 100_000),
          (int) t.integer("dream_min_sessions", d.dreamMinSessions(), 0, 100_000),
          Duration.ofMinutes(
              t.integer("dream_lock_stale_minutes", d.dreamLockStale().toMinutes(), 1, 100_000)),
          (int) t.integer("index_max_lines", d.indexMaxLines(), 10, 100_000));
    }
  }

  /**
   * The {@code [transcripts]} section: where sessions' transcripts are written.
   *
   * @param dir the transcripts folder; each working directory gets a folder in it, named as Claude
   *     Code names its project folders
   * @param project the name of this workspace's folder in {@code dir}; null: named after the
   *     workspace's path, as Claude Code names project folders. Nodes that share {@code dir} set
   *     the same name, so that a session's transcript is one, whichever node ran its turns.
   */
  public record Transcripts(Path dir, String project) {
    /** A folder name: letters, digits, {@code .}, {@code _} and {@code -}; not only dots. */
    private static final java.util.regex.Pattern PROJECT =
        java.util.regex.Pattern.compile("(?!\\.+$)[A-Za-z0-9._-]{1,200}");

    public static Transcripts defaults(Path base) {
      return new Transcripts(base.resolve("castra/transcripts").normalize(), null);
    }

    static Transcripts read(TomlTable t, Path base) {
      String project = t.string("project", "");
      if (project.isEmpty()) {
        project = null; // named after the workspace's path
      } else if (!PROJECT.matcher(project).matches()) {
        throw t.error(
            "project",
            "a folder name of letters, digits, '.', '_' and '-' (1 to 200), such as \"legion\"",
            "\"" + dev.legio.errors.Quoted.of(project) + "\"");
      }
      return new Transcripts(t.path("dir", base, defaults(base).dir()), project);
    }
  }

  /**
   * The {@code [mcp]} section: the agents' tools over streamable HTTP from {@code legio serve}.
   *
   * @param httpEnabled whether {@code legio serve} serves MCP over HTTP
   * @param httpBind the address to listen on (default loopback only)
   * @param httpPort the TCP port; 0 picks a free one (printed at start)
   * @param allowedOrigins browser origins accepted besides the server's own ({@code allowed_origins
   *     = ["https://console.example.com"]}); any other {@code Origin} gets 403
   */
  public record Mcp(
      boolean httpEnabled, String httpBind, int httpPort, List<String> allowedOrigins) {
    public static final int DEFAULT_PORT = 8740;

    public Mcp {
      allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** No origins beyond the server's own. */
    public Mcp(boolean httpEnabled, String httpBind, int httpPort) {
      this(httpEnabled, httpBind, httpPort, List.of());
    }

    public static Mcp defaults() {
      return new Mcp(true, "127.0.0.1", DEFAULT_PORT);
    }

    static Mcp read(TomlTable t) {
      Mcp d = defaults();
      boolean enabled = t.bool("http_enabled", d.httpEnabled());
      String bind = t.string("http_bind", d.httpBind());
      if (bind.isBlank()) {
        throw t.error("http_bind", "an address such as \"127.0.0.1\"", "\"\"");
      }
      int port = (int) t.integer("http_port", d.httpPort(), 0, 65_535);
      List<String> origins = t.strings("allowed_origins", "[\"https://console.example.com\"]");
      for (String origin : origins) {
        if (!origin.matches("https?://[^/\\s]+")) {
          throw t.error(
              "allowed_origins",
              "origins such as \"https://console.example.com\" (scheme://host[:port], no path)",
              "\"" + origin + "\"");
        }
      }
      return new Mcp(enabled, bind, port, origins);
    }
  }

  /**
   * The {@code [backend]} section: which model back-end agents talk to, and how the HTTP back-ends
   * ({@code anthropic}, {@code openai}, {@code ollama}) reach their API.
   *
   * @param kind {@code auto} (detect: see {@code BackendDetector}), {@code offline}, {@code
   *     claude-cli}, {@code anthropic}, {@code openai} or {@code ollama}
   * @param model the model; empty: the kind's default
   * @param baseUrl where the API is; empty: the kind's default
   * @param apiKeyEnv the environment variable holding the API key; empty: the kind's usual one
   *     ({@code ANTHROPIC_API_KEY}, {@code OPENAI_API_KEY})
   * @param apiKey the API key read from that variable; null when unset. Never logged or shown.
   * @param summariseAfterTokens compact a conversation past this many tokens at the latest; 0: only
   *     at {@code [context] compact_threshold} of the model's context window
   * @param contextWindows {@code [backend.context_windows]}: model name (or prefix) → tokens
   * @param keepAlive Ollama's {@code keep_alive}
   * @param countTokens Anthropic: count the conversation's tokens exactly before each turn
   */
  public record Backend(
      String kind,
      String model,
      String baseUrl,
      String apiKeyEnv,
      String apiKey,
      Duration connectTimeout,
      Duration requestTimeout,
      int maxRetries,
      int maxOutputTokens,
      long summariseAfterTokens,
      Map<String, Integer> contextWindows,
      String keepAlive,
      boolean countTokens) {

    public static final String AUTO = "auto";

    /** The values of {@code kind}. */
    public static final List<String> KINDS =
        List.of(AUTO, "offline", "claude-cli", "anthropic", "openai", "ollama");

    /** The defaults, with {@code kind}. */
    public static Backend of(String kind) {
      return new Backend(
          kind,
          "",
          "",
          "",
          null,
          Duration.ofSeconds(10),
          Duration.ofSeconds(600),
          3,
          8192,
          0,
          Map.of(),
          "5m",
          false);
    }

    /** Reads {@code [backend]} over {@code of("auto")}; the API key comes from {@code env}. */
    static Backend read(TomlTable t, Map<String, String> env) {
      Backend d = of(AUTO);
      String kind = t.choice("kind", d.kind(), KINDS);
      String model = t.string("model", d.model()).strip();
      String baseUrl = BaseUrl.check(t, "base_url", t.string("base_url", d.baseUrl()).strip());
      String keyEnv = t.string("api_key_env", d.apiKeyEnv()).strip();
      long connect = t.integer("connect_timeout_seconds", d.connectTimeout().toSeconds(), 1, 600);
      long request =
          t.integer("request_timeout_seconds", d.requestTimeout().toSeconds(), 1, 86_400);
      int retries = (int) t.integer("max_retries", d.maxRetries(), 0, 10);
      int maxOutput = (int) t.integer("max_output_tokens", d.maxOutputTokens(), 1, 1_000_000);
      long summarise =
          t.integer("summarise_after_tokens", d.summariseAfterTokens(), 0, 100_000_000);
      boolean countTokens = t.bool("count_tokens", d.countTokens());
      String keepAlive = t.string("keep_alive", d.keepAlive()).strip();
      if (!keepAlive.matches("-?\\d+[smh]?|-1")) {
        throw t.error(
            "keep_alive",
            "a duration like \"5m\", \"1h\", \"0\" or \"-1\"",
            "\"" + keepAlive + "\"");
      }
      TomlTable windowTable = t.table("context_windows");
      Map<String, Integer> windows = new TreeMap<>(d.contextWindows());
      for (String name : windowTable.keys()) {
        windows.put(name, (int) windowTable.integer(name, 0, 1_000, 100_000_000));
      }
      String variable = apiKeyVariable(keyEnv, kind);
      String key = variable == null ? null : env.get(variable);
      if (key != null && !key.isBlank()) {
        ApiKeyCharacters.require(variable, key.strip());
      }
      return new Backend(
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

    /** This section with another API key (tests, and keys found by detection). */
    public Backend withApiKey(String key) {
      return new Backend(
          kind,
          model,
          baseUrl,
          apiKeyEnv,
          key,
          connectTimeout,
          requestTimeout,
          maxRetries,
          maxOutputTokens,
          summariseAfterTokens,
          contextWindows,
          keepAlive,
          countTokens);
    }

    /** This section with another base URL. */
    public Backend withBaseUrl(String url) {
      return new Backend(
          kind,
          model,
          url,
          apiKeyEnv,
          apiKey,
          connectTimeout,
          requestTimeout,
          maxRetries,
          maxOutputTokens,
          summariseAfterTokens,
          contextWindows,
          keepAlive,
          countTokens);
    }

    /** The environment variable the API key of {@code forKind} is read from, or null if none. */
    public static String apiKeyVariable(String configured, String forKind) {
      if (configured != null && !configured.isEmpty()) {
        return configured;
      }
      return switch (forKind) {
        case "anthropic", AUTO -> "ANTHROPIC_API_KEY";
        case "openai" -> "OPENAI_API_KEY";
        default -> null;
      };
    }

    @Override
    public String toString() {
      return ("Backend[kind=%s, model=%s, baseUrl=%s, apiKeyEnv=%s, apiKey=%s, connectTimeout=%s,"
              + " requestTimeout=%s, maxRetries=%d, maxOutputTokens=%d, summariseAfterTokens=%d,"
              + " contextWindows=%s, keepAlive=%s, countTokens=%s]")
          .formatted(
              kind,
              model,
              baseUrl,
              apiKeyEnv,
              apiKey == null ? "(unset)" : "***",
              connectTimeout,
              requestTimeout,
              maxRetries,
              maxOutputTokens,
              summariseAfterTokens,
              contextWindows,
              keepAlive,
              countTokens);
    }
  }

  /** The {@code [logging]} section. */
  public record Logging(String level, Path file) {
    /** The values of {@code level}, most severe first. */
    public static final List<String> LEVELS = List.of("error", "warn", "info", "debug", "trace");

    public static Logging defaults(Path base) {
      return new Logging("info", base.resolve("castra/logs/legio.log").normalize());
    }

    static Logging read(TomlTable t, Path base) {
      Logging d = defaults(base);
      return new Logging(t.choice("level", d.level(), LEVELS), t.path("file", base, d.file()));
    }
  }
}
