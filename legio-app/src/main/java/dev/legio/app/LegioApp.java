package dev.legio.app;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.backend.claudecli.ClaudeCliBinary;
import dev.legio.backend.claudecli.McpConfigSource;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.config.ConfigException;
import dev.legio.config.ConfigLoader;
import dev.legio.config.LegioConfig;
import dev.legio.log.MessageLog;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionStore;
import dev.legio.store.LegioStore;
import dev.legio.workspace.Workspace;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * The composition root: reads a workspace's configuration and wires the parts from it. Every
 * command gets its parts from here; nothing else constructs stores.
 */
public final class LegioApp implements AutoCloseable {
  private final Workspace workspace;
  private final LegioConfig config;
  private final Map<String, String> env;
  private final Clock clock;
  private LegioStore store;
  private AgentDirectory agents;
  private ModelBackend backend;
  private SessionEngine engine;

  private LegioApp(Workspace workspace, LegioConfig config, Map<String, String> env, Clock clock) {
    this.workspace = workspace;
    this.config = config;
    this.env = env;
    this.clock = clock;
  }

  /** Reads the workspace's {@code legio.toml}; opens nothing yet. */
  public static LegioApp open(Workspace workspace, Map<String, String> env, Clock clock) {
    workspace.requireInitialised();
    LegioConfig config = ConfigLoader.load(workspace.configFile(), env);
    Logging.toFile(config.logging().file(), config.logging().level());
    return new LegioApp(workspace, config, Map.copyOf(env), clock);
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
      store = openStore(config.praetorium(), clock);
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

  /** The model back-end chosen by {@code [backend] kind}. */
  public synchronized ModelBackend backend() {
    if (backend == null) {
      backend =
          switch (config.backend().kind()) {
            case OfflineBackend.KIND -> new OfflineBackend();
            case ClaudeCliBackend.KIND -> claudeCli(config.backend().claudeCli());
            default ->
                throw new IllegalStateException("unknown back-end " + config.backend().kind());
          };
    }
    return backend;
  }

  private ModelBackend claudeCli(LegioConfig.ClaudeCli c) {
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
            c.mcpConfig() == null ? McpConfigSource.none() : McpConfigSource.file(c.mcpConfig())));
  }

  /** The session engine over the store, the agents and the back-end, created on first use. */
  public synchronized SessionEngine engine() {
    if (engine == null) {
      engine =
          new SessionEngine(
              messageLog(), sessions(), agents(), backend(), config.sessions(), clock);
    }
    return engine;
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
    return switch (p.store()) {
      case SQLITE -> LegioStore.openSqlite(sqliteOptions(p, clock));
      case POSTGRES -> LegioStore.openPostgres(postgresOptions(p, clock));
    };
  }

  /**
   * Opens only the message log a {@code [praetorium]} section describes (closing it closes its
   * database), for tools that need nothing else.
   */
  public static MessageLog openMessageLog(LegioConfig.Praetorium p, Clock clock) {
    return switch (p.store()) {
      case SQLITE -> JdbcMessageLogs.openSqlite(sqliteOptions(p, clock));
      case POSTGRES -> JdbcMessageLogs.openPostgres(postgresOptions(p, clock));
    };
  }

  private static JdbcMessageLogs.SqliteOptions sqliteOptions(
      LegioConfig.Praetorium p, Clock clock) {
    return new JdbcMessageLogs.SqliteOptions(
        p.sqlitePath(), p.maxMessageBytes(), p.sqliteFullSync(), p.poolSize(), clock);
  }

  private static JdbcMessageLogs.PostgresOptions postgresOptions(
      LegioConfig.Praetorium p, Clock clock) {
    return new JdbcMessageLogs.PostgresOptions(
        p.postgresUrl(),
        p.postgresUser(),
        p.postgresPassword(),
        p.maxMessageBytes(),
        p.poolSize(),
        clock);
  }

  @Override
  public synchronized void close() {
    // Sessions first (they finish or interrupt dispatches and write their records), then the
    // back-end, then the store.
    if (engine != null) {
      engine.close();
      engine = null;
    }
    if (backend != null) {
      backend.close();
      backend = null;
    }
    if (store != null) {
      store.close();
      store = null;
    }
  }
}
