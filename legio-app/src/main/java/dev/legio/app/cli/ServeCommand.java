package dev.legio.app.cli;

import dev.legio.app.LegioApp;
import dev.legio.app.mcp.LocalMcpEndpoint;
import dev.legio.app.mcp.McpHttpServer;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.LegioServer;
import dev.legio.config.LegioConfig;
import dev.legio.config.ServerSettings;
import dev.legio.config.SessionSettings;
import dev.legio.longterm.DreamScheduler;
import dev.legio.session.DailySchedule;
import dev.legio.session.SessionMaintenance;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Run Legio as a long-lived process: the HTTP API for every front end ([server] in"
          + " legio.toml; tokens from `legio token create`; see docs/API.md), the idle-session reaper, the channel-session cleanup,"
          + " the daily deletion of expired session records and old conversations (made up soon"
          + " after a start when the last one was missed; `legio cleanup` runs it now), the hourly"
          + " consolidation of idle agents' long-term memory, and the agents' tools over MCP's"
          + " streamable HTTP ([mcp] in legio.toml; each agent with its own bearer token).",
      "Stops cleanly on SIGTERM or Ctrl-C: it drains first (GET /readyz answers 503, new"
          + " requests 503, turns in flight finish within [sessions] shutdown_grace_seconds), then"
          + " background work, the agents' sessions, the legatus's, its leases handed back, the"
          + " store. With several nodes on one PostgreSQL see docs/OPERATIONS.md."
    })
final class ServeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  @ParentCommand LegioCommand root;

  @Override
  public Integer call() throws InterruptedException {
    LegioApp app = root.longRunningApp();
    ApiTokens tokens = new ApiTokens(app.workspace().castra());
    tokens.list(); // a damaged token file stops the start here, saying what to do
    CountDownLatch stopped = new CountDownLatch(1);
    SessionSettings s = app.config().sessions();
    SessionMaintenance maintenance = app.maintenance(app.clock());
    DreamScheduler dreams = dreams(app);
    McpHttpServer.Mounted mounted = mountedMcp(app);
    dev.legio.session.SingletonJobs jobs = app.singletonJobs();
    // Leases are handed back at exit only once the drain ended: turns in flight finish under them.
    CountDownLatch drained = new CountDownLatch(1);
    dev.legio.session.HeldLeases.shared()
        .releaseAtExitAfter(drained, s.shutdownGrace().plus(DRAIN_MARGIN));
    // The same for the Claude CLI's processes: their turns in flight finish within the grace.
    dev.legio.backend.claudecli.ClaudeCliBackend.stopProcessesAtExitAfter(
        drained, s.shutdownGrace().plus(DRAIN_MARGIN));
    // Before any turn runs on the engine's lowered threads (EngineThreadPriority).
    dev.legio.session.HeldLeases.shared().startHeartbeat();
    LegioServer api =
        LegioServer.asServed(app, app.clock(), tokens)
            .mcp(mounted == null ? null : mounted.handler())
            .start();
    McpHttpServer mcp = mounted == null ? startMcp(app) : null;
    // The CLI sessions' tools: this server's /mcp, not a `legio mcp` JVM per CLI process.
    if (mounted != null) {
      app.mcpServedAt(LocalMcpEndpoint.of(app.config().server().bind(), api.url().getPort()));
    } else if (mcp != null) {
      app.mcpServedAt(LocalMcpEndpoint.of(app.config().mcp().httpBind(), mcp.endpoint().getPort()));
    }
    dev.legio.app.gateway.GatewayHealthReports healthReports =
        new dev.legio.app.gateway.GatewayHealthReports(
            app.gateways(), app.store().gatewayState(), app.clock());
    exitZeroOnSigterm();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  log.info(
                      "stopping: signal received; draining (GET /readyz answers 503, new requests"
                          + " 503) for up to {} s",
                      s.shutdownGrace().toSeconds());
                  try {
                    // The drain: the API and the gateways take nothing new, turns in flight (the
                    // gateways' too) finish within the grace or are interrupted; then the
                    // gateways close, and the listener.
                    api.close();
                    app.gateways().close();
                    healthReports.close(); // stores each gateway as stopped
                    if (mounted != null) {
                      mounted.close();
                    }
                    if (mcp != null) {
                      mcp.close();
                    }
                    maintenance.close();
                    dreams.close();
                    jobs.handBack();
                    app.close();
                    log.info("stopped cleanly");
                  } finally {
                    drained.countDown();
                    stopped.countDown();
                  }
                },
                "legio-shutdown"));
    maintenance.start();
    dreams.start();
    app.gateways().start();
    healthReports.start();
    watchDatabaseFile(app);
    String summary =
        "Legio is serving "
            + app.workspace().root()
            + " at "
            + api.url()
            + ": store "
            + app.config().praetorium().store().name().toLowerCase(java.util.Locale.ROOT)
            + ", back-end "
            + app.engine().backend().displayName()
            + ", agents "
            + String.join(", ", app.engine().knownAgents())
            + "; idle sessions reaped every "
            + s.reaperInterval().toSeconds()
            + " s (timeout "
            + s.idleTimeout().toMinutes()
            + " min), channel cleanup every "
            + s.channels().cleanupInterval().toMinutes()
            + " min, expired records and conversations deleted daily at "
            + s.cleanupAt()
            + " UTC (a run missed before this start made up in "
            + DailySchedule.CATCH_UP_DELAY.toMinutes()
            + " min), idle agents' memory consolidated when its gates pass (checked every "
            + DreamScheduler.DEFAULT_INTERVAL.toMinutes()
            + " min).";
    log.info(summary);
    root.out.println(summary);
    if (mcp != null || mounted != null) {
      String line =
          "MCP over HTTP at "
              + (mcp != null ? mcp.endpoint() : api.url() + McpHttpServer.PATH)
              + " (each agent's bearer token is kept in castra/mcp/tokens/NAME; `legio mcp token"
              + " NAME` prints it).";
      log.info(line);
      root.out.println(line);
    }
    root.out.println("Stop with Ctrl-C or SIGTERM.");
    root.out.flush();
    stopped.await();
    return 0;
  }

  /**
   * A SIGTERM (a deploy, systemd's or Kubernetes' stop) ends serve with exit status 0 once the
   * drain has run, as supervisors expect of a clean stop: the JVM's own handling runs the same
   * shutdown hook but exits 143, which systemd records as a failure unless told otherwise. Ctrl-C
   * (SIGINT) keeps the JVM's 130.
   */
  private static void exitZeroOnSigterm() {
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("TERM"), signal -> System.exit(0));
    } catch (IllegalArgumentException e) {
      log.debug("SIGTERM keeps the JVM's handling: {}", e.getMessage()); // -Xrs, or no SIGTERM
    }
  }

  /** Time past the shutdown grace for closing the parts before the leases are handed back. */
  static final java.time.Duration DRAIN_MARGIN = java.time.Duration.ofSeconds(10);

  /** How often serve checks that its database file is still the one it opened. */
  static final java.time.Duration FILE_CHECK = java.time.Duration.ofSeconds(2);

  /**
   * Stops serving (exit 1, through the shutdown hook) when the SQLite database file is deleted or
   * replaced under the running process, rather than reading one file and writing another.
   */
  private void watchDatabaseFile(LegioApp app) {
    dev.legio.store.LegioStore store = app.store(); // the one opened; never reopened here
    Thread.ofPlatform()
        .daemon()
        .name("legio-praetorium-watch")
        .start(
            () -> {
              while (true) {
                try {
                  Thread.sleep(FILE_CHECK);
                } catch (InterruptedException e) {
                  return;
                }
                java.util.Optional<String> problem = store.fileProblem();
                if (problem.isPresent()) {
                  log.error(dev.legio.app.LogFileOnly.MARKER, "{}", problem.get());
                  root.err.println("legio serve: " + problem.get());
                  root.err.flush();
                  System.exit(LegioCommand.FAILURE);
                  return;
                }
              }
            });
  }

  /**
   * Consolidation of the agents' long-term memory, checked hourly, for agents idle at that moment
   * (no turn running in this process and no other process holding their lease), on the one node
   * holding the {@link #CONSOLIDATION_JOB} job.
   */
  static DreamScheduler dreams(LegioApp app) {
    dev.legio.session.SingletonJobs jobs = app.singletonJobs();
    return new DreamScheduler(
            app.consolidation(),
            () -> app.agents().names(),
            agent ->
                app.engine().status().stream()
                    .filter(s -> s.owner().equals(agent))
                    .allMatch(s -> s.activity().equals("idle")),
            DreamScheduler.DEFAULT_INTERVAL)
        .runThrough(task -> jobs.runIfHolder(CONSOLIDATION_JOB, task));
  }

  /** The job of memory consolidation: on one node at a time. */
  static final String CONSOLIDATION_JOB = "memory-consolidation";

  /**
   * MCP over HTTP on the Legio server at {@code /mcp}, when {@code [mcp] http_enabled} and {@code
   * [mcp] http_port} is left at the server's port; null otherwise (disabled, or the deprecated port
   * of its own: {@link #startMcp}). Every agent gets its token.
   */
  private static McpHttpServer.Mounted mountedMcp(LegioApp app) {
    LegioConfig.Mcp config = app.config().mcp();
    ServerSettings server = app.config().server();
    if (!config.httpEnabled() || !onTheServersPort(config, server)) {
      return null;
    }
    ensureTokens(app);
    return McpHttpServer.mountable(
        config,
        server.bind(),
        app.mcpTokens(),
        app::toolsFor,
        callerExists(app),
        server.maxBodyBytes());
  }

  private static boolean onTheServersPort(LegioConfig.Mcp config, ServerSettings server) {
    return config.httpPort() == server.port() || config.httpPort() == LegioConfig.Mcp.DEFAULT_PORT;
  }

  /**
   * MCP over HTTP on a port of its own: the deprecated {@code [mcp] http_port} set apart from
   * {@code [server] port}. Says so in the log.
   */
  private static McpHttpServer startMcp(LegioApp app) {
    LegioConfig.Mcp config = app.config().mcp();
    if (!config.httpEnabled()) {
      return null;
    }
    log.warn(
        "[mcp] http_port = {} is deprecated: MCP is served at /mcp on [server] port; remove"
            + " http_port from legio.toml to use it",
        config.httpPort());
    ensureTokens(app);
    return McpHttpServer.start(
        config,
        app.mcpTokens(),
        app::toolsFor,
        callerExists(app),
        config.allowedOrigins(),
        app.config().server().maxBodyBytes());
  }

  private static void ensureTokens(LegioApp app) {
    for (String agent : app.engine().knownAgents()) {
      app.mcpTokens().tokenFor(agent);
    }
  }

  private static java.util.function.Predicate<String> callerExists(LegioApp app) {
    return app.agents()::isAgent;
  }
}
