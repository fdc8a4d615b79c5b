package dev.legio.app;

import dev.legio.agents.AgentDirectory;
import dev.legio.app.mcp.LocalMcpEndpoint;
import dev.legio.app.metrics.LegioMetrics;
import dev.legio.backend.BackendDetector;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.claudecli.McpConfigSource;
import dev.legio.config.ConfigLoader;
import dev.legio.config.LegioConfig;
import dev.legio.log.MessageLog;
import dev.legio.longterm.ConsolidationRunner;
import dev.legio.longterm.MemoryExtractor;
import dev.legio.longterm.MemoryFolder;
import dev.legio.mcp.McpTokens;
import dev.legio.memoria.Memoria;
import dev.legio.memoria.MemoryStore;
import dev.legio.pricing.PriceTable;
import dev.legio.secrets.SecretRedactor;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionMaintenance;
import dev.legio.session.SessionStore;
import dev.legio.session.TurnListener;
import dev.legio.store.LegioStore;
import dev.legio.task.TaskSessions;
import dev.legio.tools.Toolset;
import dev.legio.transcript.SessionHistoryEditor;
import dev.legio.transcript.TranscriptBriefWriter;
import dev.legio.transcript.TranscriptStore;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageRecorder;
import dev.legio.usage.UsageRetention;
import dev.legio.workspace.Workspace;
import java.time.Clock;
import java.util.Map;
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
  private final ClockAlignment alignment;
  private LegioStore store;
  private AgentDirectory agents;
  private final ModelBackends backends;
  private final SessionToolsets toolsets = new SessionToolsets(this);
  private SessionEngine engine;
  private MemoryExtractor extractor;
  private UsageRecorder engineUsage;
  private UsageRecorder taskUsage;
  private Memoria memoria;
  private final TranscriptStores transcripts;
  private LegioMetrics metrics;
  private dev.legio.app.gateway.Gateways gateways;
  private dev.legio.session.SingletonJobs singletonJobs;
  private TaskSessions tasks;

  /**
   * How long the command that opened the app runs, which sizes its PostgreSQL connection pool: a
   * one-shot command ({@code say}, {@code status}, {@code legio mcp --agent}, ...) takes one pooled
   * connection besides the log's writer, so that many of them at once do not exhaust the server; a
   * long-running one ({@code serve}, {@code chat}) takes up to {@code [praetorium] pool_size}.
   */
  public enum Lifetime {
    ONE_SHOT,
    /**
     * A one-shot command that only reads the store ({@code history}, {@code usage}, {@code status},
     * {@code sessions list} and {@code show}): a SQLite store whose schema is current is opened
     * read-only, so that a read-only castra (or a backup) can be read and is left as it was.
     * Anything that writes then fails.
     */
    ONE_SHOT_READING,
    LONG_RUNNING;

    /** The pool size for a PostgreSQL store: 1 for a one-shot command, else {@code configured}. */
    public int postgresPool(int configured) {
      return this == LONG_RUNNING ? configured : 1;
    }

    /** True when the command only reads the store. */
    public boolean readsOnly() {
      return this == ONE_SHOT_READING;
    }
  }

  private Lifetime lifetime = Lifetime.LONG_RUNNING;

  private LegioApp(Workspace workspace, LegioConfig config, Map<String, String> env, Clock clock) {
    this.workspace = workspace;
    this.config = config;
    this.env = env;
    this.alignment =
        ClockAlignment.of(config.praetorium(), config.sessions().leaseDuration(), clock);
    this.clock = alignment.clock();
    this.transcripts = new TranscriptStores(config.transcripts(), workspace.root(), env, clock);
    this.backends =
        new ModelBackends(config.backend(), env, (kind, b) -> BackendAssembly.build(this, kind, b));
  }

  /** Reads the workspace's {@code legio.toml}; opens nothing yet. */
  public static LegioApp open(Workspace workspace, Map<String, String> env, Clock clock) {
    workspace.requireInitialised();
    SecretRedactor.registerSecretsOf(env);
    LegioConfig config = ConfigLoader.load(workspace.configFile(), env);
    SecretRedactor.register(config.backend().apiKey());
    SecretRedactor.register(config.praetorium().postgresPassword());
    SecretRedactor.register(config.telegram().token());
    SecretRedactor.register(config.telegram().webhookSecret());
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
      store =
          StoreOpener.open(
              config.praetorium(),
              clock,
              lifetime,
              new dev.legio.session.LeaseHolder(nodeName(), ProcessHandle.current().pid()));
      alignment.opened(store, lifetime == Lifetime.LONG_RUNNING);
    }
    return store;
  }

  /**
   * This node's name, recorded with its leases and with the sessions whose turns it runs: the
   * environment's {@code LEGIO_NODE_NAME} when set, else the host name.
   */
  public String nodeName() {
    String named = env.get(dev.legio.session.LeaseHolder.NODE_NAME_ENV);
    return named != null && !named.isBlank()
        ? named.strip()
        : dev.legio.session.LeaseHolder.thisProcess().host();
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
    return backends.main();
  }

  /** Which back-end {@link #backend()} chose and why, once it has; null before. */
  public synchronized String backendChoice() {
    return backends.choice();
  }

  /**
   * The back-end of {@code kind} for agents that name it in their front matter ({@code backend:
   * ollama}), by {@link ModelBackends}' rules.
   */
  ModelBackend backendOfKind(String kind) {
    return backends.ofKind(kind, backend());
  }

  /** This app's environment variables (API keys, the Claude CLI's location). */
  Map<String, String> env() {
    return env;
  }

  /**
   * The clock every part of this app runs on: the clock it was opened with, aligned with the
   * database's on PostgreSQL ({@link ClockAlignment}).
   */
  public Clock clock() {
    return clock;
  }

  /**
   * Now, on the clock the store's rows are stamped on, for an age compared with what the store
   * holds (a prune's cutoff, a report's start, a lease's life). On PostgreSQL that clock is the
   * database's, measured when the store opens: this opens the store first, since {@link #clock()}
   * read before then is this machine's own.
   */
  public java.time.Instant storeNow() {
    store();
    return clock.instant();
  }

  /**
   * This node's clock against its database's, when the app aligns it (PostgreSQL): the offset
   * measured, for {@code legio status} and {@code GET /readyz}.
   */
  public java.util.Optional<dev.legio.store.DatabaseAlignedClock> databaseAlignedClock() {
    return alignment.aligned();
  }

  /** The conversations the HTTP back-ends keep, in {@link #store()}. */
  public dev.legio.backend.http.ConversationStore conversations() {
    return store().conversations();
  }

  /** Each Claude Code CLI session's memory tools over MCP ({@link SessionToolsets}). */
  public McpConfigSource memoriaOverMcp() {
    return toolsets.overMcp();
  }

  /**
   * Tells the Claude Code CLI sessions opened from now on to reach their memory tools at {@code
   * endpoint}, this process's MCP over HTTP ({@code legio serve}), instead of starting {@code legio
   * mcp} each ({@link SessionToolsets}).
   */
  public void mcpServedAt(LocalMcpEndpoint endpoint) {
    toolsets.serveOverHttp(endpoint.uri());
  }

  /** The session engine over the store, the agents and the back-end, created on first use. */
  public synchronized SessionEngine engine() {
    if (engine == null) {
      LegioConfig.Memory memory = config.memory();
      engineUsage = new UsageRecorder(usage(), prices());
      engine =
          SessionEngine.builder()
              .messageLog(messageLog())
              .store(sessions())
              .agents(agents())
              .backend(backend())
              .settings(config.sessions())
              .legatus(config.legatus())
              .clock(clock)
              .turnListener(TurnListener.inOrder(transcripts.recorder(), engineUsage, extractor()))
              .backendsByKind(this::backendOfKind)
              .memory(MemoryFolder.systemPrompt(memory.dir(), memory.indexMaxLines()))
              .briefWriter(new TranscriptBriefWriter(transcripts.cli()))
              .unfinishedEdits(transcripts.rewinds())
              .build();
    }
    return engine;
  }

  /**
   * The turns of {@link #engine()} whose usage the ledger could not record, if any. Complete once
   * the app is closed (closing the engine tells the ledger of every turn); readable after.
   */
  public synchronized java.util.Optional<UsageRecorder.Unrecorded> unrecordedUsage() {
    return engineUsage == null ? java.util.Optional.empty() : engineUsage.unrecorded();
  }

  /**
   * The background jobs that run on one node at a time among the Legio processes sharing this store
   * (leases of {@code [sessions] lease_ttl_seconds}, renewed by a heartbeat, released at exit).
   * Created on first use.
   */
  public synchronized dev.legio.session.SingletonJobs singletonJobs() {
    if (singletonJobs == null) {
      singletonJobs =
          new dev.legio.session.SingletonJobs(
              store().jobLeases(),
              config.sessions().leaseDuration(),
              clock,
              dev.legio.session.HeldLeases.shared());
    }
    return singletonJobs;
  }

  /**
   * The task sessions (keyed by session key and agent) over the store, the agents and the
   * back-ends, created on first use: the one service behind {@code POST /api/v1/tasks} and {@link
   * Legio#tasks()}.
   */
  public synchronized TaskSessions tasks() {
    if (tasks == null) {
      tasks =
          new TaskSessions(
              agents(),
              backend(),
              this::backendOfKind,
              store().tasks(),
              sessions(),
              usage(),
              taskUsage = new UsageRecorder(usage(), prices()),
              config.sessions(),
              clock,
              conversations());
    }
    return tasks;
  }

  /**
   * The background work of {@code legio serve}, on {@code clock}, not started: {@link
   * MaintenancePlan}.
   */
  public SessionMaintenance maintenance(Clock clock) {
    return MaintenancePlan.of(this, clock);
  }

  /**
   * The daily cleanup {@code legio serve} runs ({@link MaintenancePlan#dailyCleanup}), for {@code
   * legio cleanup} to run now.
   */
  public dev.legio.session.DailyCleanup dailyCleanup() {
    return MaintenancePlan.dailyCleanup(this, clock);
  }

  /**
   * Extracts durable facts from the agents' sessions into their {@code MEMORY.md} ({@link
   * MemoryAssembly}); told of each turn after the transcript recorder has written it, closed after
   * the engine.
   */
  synchronized MemoryExtractor extractor() {
    if (extractor == null) {
      extractor = MemoryAssembly.extractor(this, backends::started);
    }
    return extractor;
  }

  /** The memory stores (edicta, acta, commentarii) of the castra, in {@link #memoriaStore()}. */
  public synchronized Memoria memoria() {
    if (memoria == null) {
      memoria = new Memoria(memoriaStore(), agents(), clock);
    }
    return memoria;
  }

  /**
   * Where memoria is kept, as {@code [memoria] store} says ({@link MemoryAssembly}): XML files
   * under the castra, or the database of {@link #store()} (opened on this call).
   */
  public synchronized MemoryStore memoriaStore() {
    return MemoryAssembly.memoriaStore(this);
  }

  /** The tools of MCP caller {@code caller} ({@link SessionToolsets}). */
  public Toolset toolsFor(String caller) {
    return toolsets.forCaller(caller);
  }

  /**
   * The tools of one session of an HTTP back-end, by its owner and role ({@link SessionToolsets}).
   */
  public Toolset sessionTools(SessionSpec spec) {
    return toolsets.forSession(spec);
  }

  /** The bearer tokens of the MCP server over HTTP. */
  public McpTokens mcpTokens() {
    return new McpTokens(workspace.castra());
  }

  /**
   * The {@code --mcp-config} JSON that makes the Claude Code CLI start {@code legio mcp --agent
   * caller} for this workspace.
   */
  public String mcpConfigJson(String caller) {
    return toolsets.mcpConfigJson(caller);
  }

  /**
   * The sessions' transcripts: {@code [transcripts] dir}, in folder {@code [transcripts] project},
   * else the folder Claude Code would use for the workspace's root as working directory ({@link
   * TranscriptStores}).
   */
  public synchronized TranscriptStore transcripts() {
    return transcripts.own();
  }

  /**
   * Rewind and fork of sessions ({@code legio sessions rewind|fork}, the chat's {@code /rewind} and
   * {@code /fork}; the HTTP API's {@code POST /api/v1/sessions/{id}/rewind|fork} calls it too).
   */
  public SessionHistoryEditor historyEditor() {
    return new SessionHistoryEditor(
            sessions(), transcripts.rewinds(), conversations(), transcripts.cli(), clock)
        .withShapes(engine()::shapeOf)
        .guardedBy(engine().edits());
  }

  /**
   * Consolidation ("dream") of the agents' long-term memory ({@code [memory]}): over the
   * transcripts, each agent asking its own back-end and model ({@link MemoryAssembly}).
   */
  public ConsolidationRunner consolidation() {
    return MemoryAssembly.consolidation(this);
  }

  /**
   * This process's metrics ({@code GET /metrics}): the engine's, the store's and its pool's, the
   * JVM's; created on first use (so one-shot commands never load Micrometer), closed with the app.
   */
  public synchronized LegioMetrics metrics() {
    if (metrics == null) {
      metrics =
          LegioMetrics.watching(
                  engine(), sessions(), messageLog(), new UsageRecorder(usage(), prices())::entryOf)
              .measuringTasks(tasks())
              .withPoolOf(store());
    }
    return metrics;
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

  /**
   * The ways in to the agents that every door shares (the API, the console, the gateways): caesar's
   * path and a channel's path.
   */
  public dev.legio.app.conversation.Conversations doors() {
    return new dev.legio.app.conversation.Conversations(engine(), config.sessions());
  }

  /**
   * The chat gateways that {@code [gateways.*]} in legio.toml enables (none by default), built but
   * not started: {@code legio serve} starts them after its server.
   */
  public synchronized dev.legio.app.gateway.Gateways gateways() {
    if (gateways == null) {
      gateways = new dev.legio.app.gateway.Gateways(GatewayAssembly.enabled(this, clock));
    }
    return gateways;
  }

  /** The message log, in {@link #store()}. */
  public MessageLog messageLog() {
    return store().messageLog();
  }

  /** The session records and leases, in {@link #store()}. */
  public SessionStore sessions() {
    return store().sessions();
  }

  @Override
  public synchronized void close() {
    if (gateways != null) {
      gateways.close();
      gateways = null;
    }
    // Gateways first (no new turns come in), then sessions (they finish or interrupt dispatches
    // and write their records), then memory extraction, then the back-end, then the store.
    if (metrics != null) {
      metrics.close();
      metrics = null;
    }
    if (engine != null) {
      engine.close();
      engine = null;
    }
    transcripts.close(); // the engine has told it of every turn: the last try at locked ones
    // The engine has told the usage recorder of every turn: it writes once more what a failed
    // write left, before the store closes (engineUsage stays, for unrecordedUsage()).
    if (engineUsage != null) {
      engineUsage.close();
    }
    if (tasks != null) {
      tasks.close();
      tasks = null;
    }
    if (taskUsage != null) {
      taskUsage.close(); // the task turns' rows a failed write left, once more
      taskUsage = null;
    }
    // The engine has told the extractor of every turn; let it finish the extraction it runs (it
    // needs the back-end).
    if (extractor != null) {
      extractor.close();
      extractor = null;
    }
    backends.close();
    alignment.close();
    if (store != null) {
      store.close();
      store = null;
    }
  }
}
