package dev.legio.config;

import dev.legio.session.SessionSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
    ClaudeCli claudeCli,
    Mcp mcp,
    Transcripts transcripts,
    Context context,
    Memory memory) {

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
   * @param dreamLockStale a consolidation lock older than this is stale
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
    public static Memory defaults(Path dir) {
      return new Memory(dir, true, 20, 3, 24, 5, Duration.ofHours(1), 200);
    }
  }

  /**
   * The {@code [transcripts]} section: where sessions' transcripts are written.
   *
   * @param dir the transcripts folder; each working directory gets a folder in it, named as Claude
   *     Code names its project folders
   */
  public record Transcripts(Path dir) {}

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

  /**
   * The {@code [backend.claude_cli]} sub-table: how the Claude Code CLI is run (when {@code
   * [backend] kind} is or detects {@code claude-cli}).
   *
   * @param binary the {@code claude} executable: a path, or a name looked up on the PATH ({@code
   *     "claude"} also falls back to Legio's npm cache folder)
   * @param perTurn true for one process per turn ({@code mode = "per_turn"}), false for one
   *     long-lived process per session ({@code mode = "persistent"})
   * @param permissionMode the CLI's {@code --permission-mode}; empty: the CLI's default
   * @param allowedTools the CLI's {@code --allowedTools}
   * @param turnTimeout the longest one turn may take before the process is stopped
   * @param mcpConfig an MCP configuration file passed with {@code --mcp-config}, or null
   */
  public record ClaudeCli(
      String binary,
      boolean perTurn,
      String permissionMode,
      java.util.List<String> allowedTools,
      java.time.Duration turnTimeout,
      Path mcpConfig) {}

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
