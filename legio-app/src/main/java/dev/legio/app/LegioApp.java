package dev.legio.app;

import dev.legio.config.ConfigLoader;
import dev.legio.config.LegioConfig;
import dev.legio.log.MessageLog;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.workspace.Workspace;
import java.time.Clock;
import java.util.Map;

/**
 * The composition root: reads a workspace's configuration and wires the parts from it. Every
 * command gets its parts from here; nothing else constructs stores.
 */
public final class LegioApp implements AutoCloseable {
  private final Workspace workspace;
  private final LegioConfig config;
  private final Clock clock;
  private MessageLog messageLog;

  private LegioApp(Workspace workspace, LegioConfig config, Clock clock) {
    this.workspace = workspace;
    this.config = config;
    this.clock = clock;
  }

  /** Reads the workspace's {@code legio.toml}; opens nothing yet. */
  public static LegioApp open(Workspace workspace, Map<String, String> env, Clock clock) {
    workspace.requireInitialised();
    LegioConfig config = ConfigLoader.load(workspace.configFile(), env);
    Logging.toFile(config.logging().file(), config.logging().level());
    return new LegioApp(workspace, config, clock);
  }

  public Workspace workspace() {
    return workspace;
  }

  public LegioConfig config() {
    return config;
  }

  /** The message log, opened (and migrated) on first use. */
  public synchronized MessageLog messageLog() {
    if (messageLog == null) {
      messageLog = openMessageLog(config.praetorium(), clock);
    }
    return messageLog;
  }

  /** Opens the store a {@code [praetorium]} section describes. */
  public static MessageLog openMessageLog(LegioConfig.Praetorium p, Clock clock) {
    return switch (p.store()) {
      case SQLITE ->
          JdbcMessageLogs.openSqlite(
              new JdbcMessageLogs.SqliteOptions(
                  p.sqlitePath(), p.maxMessageBytes(), p.sqliteFullSync(), p.poolSize(), clock));
      case POSTGRES ->
          JdbcMessageLogs.openPostgres(
              new JdbcMessageLogs.PostgresOptions(
                  p.postgresUrl(),
                  p.postgresUser(),
                  p.postgresPassword(),
                  p.maxMessageBytes(),
                  p.poolSize(),
                  clock));
    };
  }

  @Override
  public synchronized void close() {
    if (messageLog != null) {
      messageLog.close();
      messageLog = null;
    }
  }
}
