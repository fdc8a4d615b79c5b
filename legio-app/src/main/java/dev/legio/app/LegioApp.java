package dev.legio.app;

import dev.legio.agents.AgentDirectory;
import dev.legio.agents.AgentProfile;
import dev.legio.backend.BackendDetector;
import dev.legio.backend.ContextWindows;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.SessionTools;
import dev.legio.backend.anthropic.AnthropicBackend;
import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.backend.claudecli.ClaudeCliBinary;
import dev.legio.backend.claudecli.McpConfigSource;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.backend.ollama.OllamaBackend;
import dev.legio.backend.openai.OpenAiBackend;
import dev.legio.config.ConfigException;
import dev.legio.config.ConfigLoader;
import dev.legio.config.LegioConfig;
import dev.legio.config.SessionSettings;
import dev.legio.log.MessageLog;
import dev.legio.log.Names;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.longterm.ConsolidationRunner;
import dev.legio.longterm.MemoryExtractor;
import dev.legio.longterm.MemoryFolder;
import dev.legio.mcp.McpConfigFile;
import dev.legio.mcp.McpTokens;
import dev.legio.mcp.McpToolServer;
import dev.legio.memoria.Memoria;
import dev.legio.memoria.MemoryTools;
import dev.legio.pricing.PriceTable;
import dev.legio.secrets.SecretRedactor;
import dev.legio.session.LegatusTools;
import dev.legio.session.Owner;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionMaintenance;
import dev.legio.session.SessionStore;
import dev.legio.session.TurnListener;
import dev.legio.store.LegioStore;
import dev.legio.tools.ToolDefinition;
import dev.legio.tools.Toolbox;
import dev.legio.tools.Toolset;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.SessionHistoryEditor;
import dev.legio.transcript.TranscriptRecorder;
import dev.legio.transcript.TranscriptStore;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageRecorder;
import dev.legio.usage.UsageRetention;
import dev.legio.workspace.Workspace;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: reads a workspace's configuration and wires the parts from it. Every
 * command gets its parts from here; nothing else constructs stores.
 */
public final class LegioApp implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LegioApp.class);

  private final Workspace workspace;
  private final LegioConfig config;
  private final Map<String, String> env;
  private final Clock clock;
  private String backendChoice;
  private LegioStore store;
  private AgentDirectory agents;
  private volatile ModelBackend backend;
  private final Map<String, ModelBackend> backendsByKind = new ConcurrentHashMap<>();
  private SessionEngine engine;
  private MemoryExtractor extractor;
  private Memoria memoria;
  private TranscriptStore transcripts;

  /**
   * How long the command that opened the app runs, which sizes its PostgreSQL connection pool: a
   * one-shot command ({@code say}, {@code status}, {@code legio mcp --agent}, ...) takes one pooled
   * connection besides the log's writer, so that many of them at once do not exhaust the server; a
   * long-running one ({@code serve}, {@code chat}) takes up to {@code [praetorium] pool_size}.
   */
  public enum Lifetime {
    ONE_SHOT,
    LONG_RUNNING;

    /** The pool size for a PostgreSQL store: 1 for a one-shot command, else {@code configured}. */
    public int postgresPool(int configured) {
      return this == ONE_SHOT ? 1 : configured;
    }
  }

  private Lifetime lifetime = Lifetime.LONG_RUNNING;

  private LegioApp(Workspace workspace, LegioConfig config, Map<String, String> env, Clock clock) {
    this.workspace = workspace;
    this.config = config;
    this.env = env;
    this.clock = clock;
  }

  /** Reads the workspace's {@code legio.toml}; opens nothing yet. */
  public static LegioApp open(Workspace workspace, Map<String, String> env, Clock clock) {
    workspace.requireInitialised();
    SecretRedactor.registerSecretsOf(env);
    LegioConfig config = ConfigLoader.load(workspace.configFile(), env);
    SecretRedactor.register(config.backend().apiKey());
    SecretRedactor.register(config.praetorium().postgresPassword());
    Logging.toFile(config.logging().file(), config.logging().level());
    return new LegioApp(workspace, config, Map.copyOf(env), clock);
  }

  /** As {@link #open(Workspace, Map, Clock)}, for a command of the given {@link Lifetime}. */
  public static LegioApp open(
      Workspace workspace, Map<String, String> env, Clock clock, Lifetime lifetime) {
    LegioApp app = open(workspace, env, clock);
    app.lifetime = lifetime;
    return app;
  }

  public Workspace workspace() {
    return workspace;
  }

  public LegioConfig config() {
    return config;
  }

  /**
   * The database behind the message log and the session store, opened (and migrated) on first use
   * and closed with the app.
   */
  public synchronized LegioStore store() {
    if (store == null) {
      store = openStore(config.praetorium(), clock, lifetime);
    }
    return store;
  }

  /** The agents, read from the castra's prompt files. */
  public synchronized AgentDirectory agents() {
    if (agents == null) {
      agents = new AgentDirectory(workspace.castra());
    }
    return agents;
  }

  /**
   * The model back-end chosen by {@code [backend] kind}; for {@code auto}, the one {@link
   * BackendDetector} picks (see {@link #backendChoice()}).
   */
  public synchronized ModelBackend backend() {
    if (backend == null) {
      LegioConfig.Backend b = config.backend();
      String kind = b.kind();
      if (kind.equals(LegioConfig.Backend.AUTO)) {
        BackendDetector.Choice choice =
            BackendDetector.forEnvironment(env)
                .detect(
                    LegioConfig.Backend.apiKeyVariable(b.apiKeyEnv(), AnthropicBackend.KIND),
                    b.baseUrl());
        kind = choice.kind();
        backendChoice = choice.reason();
        log.info(backendChoice);
      } else {
        backendChoice = "back-end: " + kind + " ([backend] kind in legio.toml)";
      }
      backend = backend(kind, b);
    }
    return backend;
  }

  /** Which back-end {@link #backend()} chose and why, once it has; null before. */
  public synchronized String backendChoice() {
    return backendChoice;
  }

  /**
   * The back-end of {@code kind} for agents that name it in their front matter ({@code backend:
   * ollama}): the main one when it is of that kind, else one built on first use with that kind's
   * defaults (its URL, its usual API key variable) and closed with the app.
   */
  ModelBackend backendOfKind(String kind) {
    ModelBackend main = backend();
    if (main.kind().equals(kind)) {
      return main;
    }
    return backendsByKind.computeIfAbsent(
        kind,
        k -> {
          String variable = LegioConfig.Backend.apiKeyVariable("", k);
          String key = variable == null ? null : env.get(variable);
          log.info("back-end {} started for the agents that name it in their prompt.md", k);
          return backend(
              k, LegioConfig.Backend.of(k).withApiKey(key == null || key.isBlank() ? null : key));
        });
  }

  private ModelBackend backend(String kind, LegioConfig.Backend b) {
    SessionTools tools = this::sessionTools;
    RetryPolicy.Sleeper sleeper = RetryPolicy.Sleeper.REAL;
    return switch (kind) {
      // [backend.context_windows] offline = N states the offline model's window.
      case OfflineBackend.KIND ->
          new OfflineBackend(ContextWindows.hosted(b.contextWindows()).of(OfflineBackend.KIND));
      case AnthropicBackend.KIND ->
          AnthropicBackend.create(b, config.context(), conversations(), tools, clock, sleeper);
      case OpenAiBackend.KIND ->
          OpenAiBackend.create(b, config.context(), conversations(), tools, clock, sleeper);
      case OllamaBackend.KIND ->
          OllamaBackend.create(b, config.context(), conversations(), tools, clock, sleeper);
      case ClaudeCliBackend.KIND -> claudeCli(config.claudeCli(), b.contextWindows());
      default ->
          throw new ConfigException(
              "[backend] kind = \""
                  + kind
                  + "\" is not a back-end; choose \"auto\", \"offline\", \"claude-cli\","
                  + " \"anthropic\", \"openai\" or \"ollama\"");
    };
  }

  /** The conversations the HTTP back-ends keep, in {@link #store()}. */
  public dev.legio.backend.http.ConversationStore conversations() {
    return store().conversations();
  }

  private ModelBackend claudeCli(LegioConfig.ClaudeCli c, Map<String, Integer> contextWindows) {
    Path executable;
    try {
      executable = ClaudeCliBinary.locate(c.binary(), env);
    } catch (ClaudeCliBinary.NotFoundException e) {
      throw new ConfigException(workspace.configFile() + ": " + e.getMessage());
    }
    return new ClaudeCliBackend(
        new ClaudeCliBackend.Options(
            executable,
            c.perTurn() ? ClaudeCliBackend.Mode.PER_TURN : ClaudeCliBackend.Mode.PERSISTENT,
            c.permissionMode(),
            c.allowedTools(),
            c.turnTimeout(),
            workspace.root(),
            Map.of("DISABLE_AUTOUPDATER", "1"),
            c.mcpConfig() == null ? memoriaOverMcp() : McpConfigSource.file(c.mcpConfig()),
            contextWindows));
  }

  /**
   * Each Claude Code CLI session's memory tools: the CLI starts {@code legio mcp --agent CALLER}
   * over stdio, with every tool of that server allowed. An agent gets its own tools; the legatus
   * and operator channels the legatus's; public chat channels none (their CLI runs without Legio's
   * tools).
   */
  public McpConfigSource memoriaOverMcp() {
    return new McpConfigSource() {
      @Override
      public Optional<String> forSession(SessionSpec spec) {
        return mcpCaller(spec).map(LegioApp.this::mcpConfigJson);
      }

      @Override
      public List<String> allowedTools(SessionSpec spec) {
        return mcpCaller(spec)
            .map(c -> List.of("mcp__" + McpToolServer.serverName(c)))
            .orElse(List.of());
      }
    };
  }

  private static Optional<String> mcpCaller(SessionSpec spec) {
    if (!SessionSpec.OPERATOR_ROLE.equals(spec.role())) {
      return Optional.empty();
    }
    return Optional.of(Owner.of(spec.owner()).isChannel() ? Names.LEGATUS : spec.owner());
  }

  /** The session engine over the store, the agents and the back-end, created on first use. */
  public synchronized SessionEngine engine() {
    if (engine == null) {
      LegioConfig.Memory memory = config.memory();
      engine =
          SessionEngine.builder()
              .messageLog(messageLog())
              .store(sessions())
              .agents(agents())
              .backend(backend())
              .settings(config.sessions())
              .legatus(config.legatus())
              .clock(clock)
              .turnListener(
                  TurnListener.inOrder(
                      new TranscriptRecorder(transcripts()),
                      new UsageRecorder(usage(), prices()),
                      extractor()))
              .backendsByKind(this::backendOfKind)
              .memory(MemoryFolder.systemPrompt(memory.dir(), memory.indexMaxLines()))
              .build();
    }
    return engine;
  }

  /**
   * The background work of {@code legio serve}, on {@code clock}: the idle reaper and the channel
   * cleanup at their intervals, and daily at {@code [sessions] cleanup_at} UTC the expired session
   * records, then the HTTP back-ends' conversations inactive for longer than the longest session
   * time to live (a record still kept may resume only a younger one). Not started.
   */
  public SessionMaintenance maintenance(Clock clock) {
    SessionSettings s = config.sessions();
    SessionEngine e = engine();
    return new SessionMaintenance.Tasks()
        .every(
            "idle reaper",
            s.reaperInterval(),
            SessionMaintenance.reporting("idle sessions reaped", e::reapIdle))
        .every(
            "channel cleanup",
            s.channels().cleanupInterval(),
            SessionMaintenance.reporting("idle channel sessions closed", e::cleanupChannels))
        .daily("session record cleanup", e::deleteExpiredRecords)
        .daily("conversation cleanup", () -> deleteInactiveConversations(s.longestTtl(), clock))
        .daily("usage ledger pruning", this::pruneUsage)
        .build(clock, s.cleanupAt());
  }

  private void deleteInactiveConversations(Duration ttl, Clock clock) {
    int deleted = conversations().deleteInactiveBefore(clock.instant().minus(ttl));
    log.info("deleted {} conversations inactive for more than {} days", deleted, ttl.toDays());
  }

  /**
   * Extracts durable facts from the agents' sessions into their {@code MEMORY.md} ({@code
   * [memory]}); told of each turn after the transcript recorder has written it, closed after the
   * engine.
   */
  synchronized MemoryExtractor extractor() {
    if (extractor == null) {
      extractor =
          new MemoryExtractor(
              MemoryExtractor.Settings.of(config.memory()),
              transcripts(),
              this::startedBackend,
              clock);
    }
    return extractor;
  }

  /**
   * The back-end of {@code kind} if it was started (a turn ran on it), else null; takes no lock,
   * since {@link #close} holds the app's lock while the extractor finishes.
   */
  private ModelBackend startedBackend(String kind) {
    ModelBackend main = backend;
    if (main != null && main.kind().equals(kind)) {
      return main;
    }
    return backendsByKind.get(kind);
  }

  /** The memory stores (edicta, acta, commentarii) of the castra. */
  public synchronized Memoria memoria() {
    if (memoria == null) {
      memoria = new Memoria(workspace.castra(), agents(), clock);
    }
    return memoria;
  }

  /**
   * The tools of {@code caller}, served over MCP and usable in a back-end's tool-use loop: for the
   * legatus, memoria's with its rights and its own (history, dispatch, status, ...); for a
   * centurio, memoria's scoped to it. The log and the engine are opened on the first call that
   * needs them.
   */
  public Toolset toolsFor(String caller) {
    if (Names.LEGATUS.equals(caller)) {
      return new Toolbox(caller, legatusTools());
    }
    return new Toolbox(caller, MemoryTools.forAgent(memoria().forAgent(caller)));
  }

  /**
   * The tools of one session of an HTTP back-end, by its owner and role:
   *
   * <ul>
   *   <li>role {@code chat} (a public chat channel, see {@code [channels.roles]}): reading only,
   *       {@link MemoryTools#forReader}: edicta and acta, no commentarii, no history, nothing that
   *       writes or acts;
   *   <li>role {@code operator} on a channel ({@code telegram:123}): the legatus's tools, since the
   *       channel speaks for the legatus;
   *   <li>otherwise (the legatus, a centurio): {@link #toolsFor} the owner.
   * </ul>
   *
   * Any role other than {@code operator} is treated as {@code chat}.
   */
  public Toolset sessionTools(SessionSpec spec) {
    String owner = spec.owner();
    if (!SessionSpec.OPERATOR_ROLE.equals(spec.role())) {
      return new Toolbox(owner, MemoryTools.forReader(memoria().forLegatus(Names.LEGATUS)));
    }
    if (isChannel(owner)) {
      return new Toolbox(owner, legatusTools());
    }
    return toolsFor(owner);
  }

  private static boolean isChannel(String owner) {
    return Owner.of(owner).isChannel();
  }

  private List<ToolDefinition> legatusTools() {
    List<ToolDefinition> tools = new ArrayList<>();
    tools.addAll(MemoryTools.forLegatus(memoria().forLegatus(Names.LEGATUS)));
    tools.addAll(LegatusTools.definitions(this::messageLog, this::engine));
    return tools;
  }

  /** The bearer tokens of the MCP server over HTTP. */
  public McpTokens mcpTokens() {
    return new McpTokens(workspace.castra());
  }

  /**
   * The {@code --mcp-config} JSON that makes the Claude Code CLI start {@code legio mcp --agent
   * caller} for this workspace (the same Java and class path as this process).
   */
  public String mcpConfigJson(String caller) {
    return McpConfigFile.json(LegioCommandLine.ofThisProcess(), workspace.root(), caller);
  }

  /**
   * The sessions' transcripts: {@code [transcripts] dir}, in the folder Claude Code would use for
   * the workspace's root as working directory.
   */
  public synchronized TranscriptStore transcripts() {
    if (transcripts == null) {
      transcripts = new FileTranscriptStore(config.transcripts().dir(), workspace.root(), clock);
    }
    return transcripts;
  }

  /**
   * Rewind and fork of sessions ({@code legio sessions rewind|fork}, the chat's {@code /rewind} and
   * {@code /fork}; the HTTP API's {@code POST /api/v1/sessions/{id}/rewind|fork} calls it too).
   */
  public SessionHistoryEditor historyEditor() {
    return new SessionHistoryEditor(
            sessions(), transcripts(), conversations(), cliTranscripts(), clock)
        .withShapes(engine()::shapeOf);
  }

  /**
   * The Claude Code CLI's own transcripts for the workspace: {@code $CLAUDE_CONFIG_DIR/projects},
   * else {@code ~/.claude/projects}.
   */
  private TranscriptStore cliTranscripts() {
    String configDir = env.get("CLAUDE_CONFIG_DIR");
    Path base =
        configDir != null && !configDir.isBlank()
            ? Path.of(configDir)
            : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".claude");
    return new FileTranscriptStore(base.resolve("projects"), workspace.root(), clock);
  }

  /**
   * Consolidation ("dream") of the agents' long-term memory ({@code [memory]}): over the
   * transcripts, each agent asking its own back-end and model (its {@code prompt.md}'s {@code
   * backend} and {@code model}, else {@code [backend]}'s).
   */
  public ConsolidationRunner consolidation() {
    return new ConsolidationRunner(config.memory(), transcripts(), this::consolidationModel, clock);
  }

  private ConsolidationRunner.Model consolidationModel(String agent) {
    AgentProfile profile =
        Names.LEGATUS.equals(agent) ? agents().legatus() : agents().centurio(agent).orElse(null);
    if (profile == null || profile.backend() == null) {
      return new ConsolidationRunner.Model(backend(), profile == null ? null : profile.model());
    }
    return new ConsolidationRunner.Model(backendOfKind(profile.backend()), profile.model());
  }

  /** The usage ledger, in {@link #store()}: one row per turn of every session. */
  public UsageLedger usage() {
    return store().usage();
  }

  /** The price of each model: the built-in table with {@code [pricing."MODEL"]} over it. */
  public PriceTable prices() {
    return PriceTable.withOverrides(config.usage().pricing());
  }

  /** How long the usage ledger keeps a turn ({@code [usage] keep_days}, or the longest TTL). */
  public UsageRetention usageRetention() {
    return new UsageRetention(config.usage().keepDays(), config.sessions().longestTtl());
  }

  /** Deletes the ledger's turns older than {@link #usageRetention()} allows; returns how many. */
  public int pruneUsage() {
    UsageRetention retention = usageRetention();
    int deleted = usage().deleteBefore(retention.cutoff(clock.instant()));
    log.info(
        "deleted {} usage ledger rows older than {} days", deleted, retention.keepFor().toDays());
    return deleted;
  }

  /** The message log, in {@link #store()}. */
  public MessageLog messageLog() {
    return store().messageLog();
  }

  /** The session records and leases, in {@link #store()}. */
  public SessionStore sessions() {
    return store().sessions();
  }

  /** Opens the database a {@code [praetorium]} section describes. */
  public static LegioStore openStore(LegioConfig.Praetorium p, Clock clock) {
    return openStore(p, clock, Lifetime.LONG_RUNNING);
  }

  /** Opens the database a {@code [praetorium]} section describes, sized for {@code lifetime}. */
  public static LegioStore openStore(LegioConfig.Praetorium p, Clock clock, Lifetime lifetime) {
    return switch (p.store()) {
      case SQLITE -> LegioStore.openSqlite(sqliteOptions(p, clock));
      case POSTGRES ->
          LegioStore.openPostgres(postgresOptions(p, clock, lifetime.postgresPool(p.poolSize())));
    };
  }

  /**
   * Opens only the message log a {@code [praetorium]} section describes (closing it closes its
   * database), for tools that need nothing else.
   */
  public static MessageLog openMessageLog(LegioConfig.Praetorium p, Clock clock) {
    return switch (p.store()) {
      case SQLITE -> JdbcMessageLogs.openSqlite(sqliteOptions(p, clock));
      case POSTGRES -> JdbcMessageLogs.openPostgres(postgresOptions(p, clock, p.poolSize()));
    };
  }

  private static JdbcMessageLogs.SqliteOptions sqliteOptions(
      LegioConfig.Praetorium p, Clock clock) {
    return new JdbcMessageLogs.SqliteOptions(
        p.sqlitePath(), p.maxMessageBytes(), p.sqliteFullSync(), p.poolSize(), clock);
  }

  private static JdbcMessageLogs.PostgresOptions postgresOptions(
      LegioConfig.Praetorium p, Clock clock, int poolSize) {
    return new JdbcMessageLogs.PostgresOptions(
        p.postgresUrl(),
        p.postgresUser(),
        p.postgresPassword(),
        p.maxMessageBytes(),
        poolSize,
        clock);
  }

  @Override
  public synchronized void close() {
    // Sessions first (they finish or interrupt dispatches and write their records), then memory
    // extraction, then the back-end, then the store.
    if (engine != null) {
      engine.close();
      engine = null;
    }
    // The engine has told the extractor of every turn; let it finish the extraction it runs (it
    // needs the back-end).
    if (extractor != null) {
      extractor.close();
      extractor = null;
    }
    if (backend != null) {
      backend.close();
      backend = null;
    }
    backendsByKind.values().forEach(ModelBackend::close);
    backendsByKind.clear();
    if (store != null) {
      store.close();
      store = null;
    }
  }
}
