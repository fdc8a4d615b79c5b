package dev.legio.app.server;

import dev.legio.app.LegioApp;
import dev.legio.app.gateway.Gateways;
import dev.legio.app.http.CannotListenException;
import dev.legio.app.http.ListeningConnector;
import dev.legio.app.http.StalledTransfer;
import dev.legio.app.metrics.LegioMetrics;
import dev.legio.config.ServerSettings;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.eclipse.jetty.http.pathmap.ServletPathSpec;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Legio server: one HTTP API for every front end (embedded Jetty; the API's threads only read,
 * check and answer, and turns run on virtual threads: {@link HandOff}), on {@code [server] bind}
 * and {@code port}. The routes are in {@link Routes}; MCP over HTTP may be mounted at {@code /mcp}
 * ({@link Builder#mcp}); {@code GET /metrics} serves the {@link LegioMetrics} given to {@link
 * Builder#metrics}; the web console is served at {@code /} ({@link ConsoleHandler}).
 *
 * <p>Shutdown ({@link #close}) drains: {@code GET /readyz} answers 503 (draining) and new requests
 * get 503 at once (but {@code /healthz} and {@code /readyz}, still answered), event streams end
 * with a {@code shutdown} event, requests in flight (a turn being answered or streamed) may finish
 * within the grace period, as may the chat gateways' turns, which take no new message from the
 * start. A request still waiting for its body has dispatched nothing: it is ended at once (503,
 * {@link AwaitedBodies}), not waited for. Turns still running then are interrupted while their
 * callers are still connected, so each caller is answered that Legio shut down (within {@link
 * #ANSWER_INTERRUPTED}); then the listener closes. The whole stop takes the grace and a few
 * seconds, not the grace twice.
 */
public final class LegioServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LegioServer.class);

  /** Events a client may fall behind by before it is disconnected. */
  public static final int DEFAULT_EVENT_BUFFER = 4_096;

  /** How long the callers of interrupted turns have to be answered before the listener closes. */
  static final Duration ANSWER_INTERRUPTED = Duration.ofSeconds(5);

  /** How long Jetty's own stop may wait, once the drain has answered what it could. */
  private static final Duration JETTY_STOP = Duration.ofSeconds(2);

  private final Server jetty;
  private final ApiRouter router;
  private final EventHub hub;
  private final ServerParts parts;
  private final URI url;
  private final Duration grace;
  private final Readiness readiness;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();
  private NodeAnnouncer announcer;
  private Gateways gateways = Gateways.NONE;

  private LegioServer(
      Server jetty,
      ApiRouter router,
      EventHub hub,
      ServerParts parts,
      URI url,
      Duration grace,
      Readiness readiness) {
    this.readiness = readiness;
    this.jetty = jetty;
    this.router = router;
    this.hub = hub;
    this.parts = parts;
    this.url = url;
    this.grace = grace;
  }

  public static Builder builder(ServerSettings config, ServerParts parts, ApiTokens tokens) {
    return new Builder(config, parts, tokens);
  }

  /**
   * The server as {@code legio serve} runs it, but for MCP (its caller mounts it): {@code app}'s
   * metrics, gateways and readiness, the engine's threads at {@code [server] engine_priority}, and
   * this node among the nodes of its database. {@code legio bench api} measures this server.
   */
  public static Builder asServed(LegioApp app, Clock clock, ApiTokens tokens) {
    return builder(app.config().server(), ServerParts.of(app, clock), tokens)
        .enginePriority(EngineThreadPriority.of(app.config().server().enginePriority()))
        .metrics(app.metrics())
        .gateways(app.gateways())
        .readiness(Readiness.of(app))
        .relayAnswerWithin(
            PeerRelay.answerWithin(
                app.config().sessions().lockWait(), app.config().claudeCli().turnTimeout()))
        .cluster(
            app.store().nodes(),
            app.nodeName(),
            new SessionAffinity(
                app.store().nodes(),
                app.sessions(),
                app.tasks(),
                app.nodeName(),
                app.config().sessions().leaseDuration(),
                clock,
                SessionAffinity.NODE_LOCAL_BACKENDS));
  }

  /** How to start a server; {@link #start} listens. */
  public static final class Builder {
    private final ServerSettings config;
    private final ServerParts parts;
    private final ApiTokens tokens;
    private Handler mcp;
    private LegioMetrics metrics;
    private Gateways gateways = Gateways.NONE;
    private int eventBuffer = DEFAULT_EVENT_BUFFER;
    private Duration pollInterval = Duration.ofMillis(250);
    private Duration idleTimeout = StalledTransfer.IDLE_TIMEOUT;
    private EngineThreadPriority enginePriority = EngineThreadPriority.UNCHANGED;
    private Readiness readiness = Readiness.alwaysReady();
    private SessionAffinity affinity = SessionAffinity.NONE;
    private dev.legio.store.NodeDirectory nodes;
    private String node;
    private Duration relayAnswerWithin;

    private Builder(ServerSettings config, ServerParts parts, ApiTokens tokens) {
      this.config = config;
      this.parts = parts;
      this.tokens = tokens;
    }

    /**
     * The handler of MCP over HTTP, mounted at {@code /mcp}; null (the default): none. It sees the
     * request with its full path ({@code /mcp}).
     */
    public Builder mcp(Handler handler) {
      this.mcp = handler;
      return this;
    }

    /**
     * What {@code GET /metrics} serves (the caller keeps and closes it); null (the default): that
     * route answers 404.
     */
    public Builder metrics(LegioMetrics served) {
      this.metrics = served;
      return this;
    }

    /** What {@code GET /readyz} checks (default: always ready but while draining). */
    public Builder readiness(Readiness readiness) {
      this.readiness = java.util.Objects.requireNonNull(readiness, "readiness");
      return this;
    }

    /**
     * The chat gateways: their HTTP handlers are mounted at their own paths (under {@code
     * /gateways/}) and their health is part of {@code GET /api/v1/status}.
     */
    public Builder gateways(Gateways gateways) {
      this.gateways = gateways;
      return this;
    }

    /**
     * Several nodes on one database: this node announces itself in {@code nodes} as {@code node}
     * while it serves, and sends the turns of sessions another live node holds to that node ({@link
     * SessionAffinity}). Default: none of this (one node).
     */
    public Builder cluster(
        dev.legio.store.NodeDirectory nodes, String node, SessionAffinity affinity) {
      this.nodes = java.util.Objects.requireNonNull(nodes, "nodes");
      this.node = java.util.Objects.requireNonNull(node, "node");
      this.affinity = java.util.Objects.requireNonNull(affinity, "affinity");
      return this;
    }

    /**
     * How long a turn sent to another node may take to be answered in full ({@link
     * PeerRelay#answerWithin}; default: with the Claude CLI's default turn time-out). {@code legio
     * serve} reckons it from its configuration; tests shorten it.
     */
    public Builder relayAnswerWithin(Duration within) {
      this.relayAnswerWithin = java.util.Objects.requireNonNull(within, "within");
      return this;
    }

    /** Events a client of {@code /events} may fall behind by before it is disconnected. */
    public Builder eventBuffer(int events) {
      this.eventBuffer = events;
      return this;
    }

    /**
     * How far below the API's threads the engine's work runs ({@link EngineThreadPriority};
     * default: unchanged). {@code legio serve} sets {@code [server] engine_priority}.
     */
    public Builder enginePriority(EngineThreadPriority priority) {
      this.enginePriority = java.util.Objects.requireNonNull(priority, "priority");
      return this;
    }

    /** How often the event feed looks for messages logged by other processes. */
    public Builder pollInterval(Duration interval) {
      this.pollInterval = interval;
      return this;
    }

    /** How long a read or write may wait with nothing moving (tests shorten it). */
    public Builder idleTimeout(Duration timeout) {
      this.idleTimeout = timeout;
      return this;
    }

    public LegioServer start() {
      EventHub hub = new EventHub(parts.messageLog(), eventBuffer, pollInterval);
      ApiRouter router =
          new ApiRouter(
              Routes.all(
                  parts,
                  hub,
                  gateways::health,
                  metrics,
                  readiness,
                  new PeerRelay(
                      affinity,
                      node == null ? "" : node,
                      relayAnswerWithin != null
                          ? relayAnswerWithin
                          : PeerRelay.answerWithin(
                              parts.settings().lockWait(),
                              dev.legio.config.ClaudeCliSettings.defaults().turnTimeout()))),
              tokens,
              config.maxBodyBytes());
      // The API's threads: platform threads that only read, check and answer (HandOff's rules),
      // all started with the server from this thread, the selector never handing its role over.
      QueuedThreadPool threads = ApiThreads.pool();
      router.handOff(new HandOff(enginePriority, router::respond));
      Server jetty = new Server(threads);
      ServerConnector connector = ListeningConnector.open(jetty, config.bind(), config.port());
      // A stalled read or write fails after this; a long turn does not (StalledTransfer).
      connector.setIdleTimeout(idleTimeout.toMillis());
      PathMappingsHandler paths = new PathMappingsHandler();
      // ---- MCP over HTTP: the one place where a handler is mounted at /mcp ----
      if (mcp != null) {
        Handler onVirtualThreads = new VirtualThreadHandler(mcp, enginePriority);
        paths.addMapping(new ServletPathSpec("/mcp"), onVirtualThreads);
        paths.addMapping(new ServletPathSpec("/mcp/*"), onVirtualThreads);
        // MCP's protected-resource metadata (RFC 9728), named by its 401 answers.
        paths.addMapping(
            new ServletPathSpec("/.well-known/oauth-protected-resource"), onVirtualThreads);
        paths.addMapping(
            new ServletPathSpec("/.well-known/oauth-protected-resource/*"), onVirtualThreads);
      }
      // ---- chat gateways' webhooks: each checks its platform's signature itself ----
      gateways
          .routes()
          .forEach(
              (path, handler) ->
                  paths.addMapping(
                      new ServletPathSpec(path),
                      new VirtualThreadHandler(handler, enginePriority)));
      // ---- the web console: its pages at / and /viewer/{id}, its assets at /console/* ----
      ConsoleHandler console = new ConsoleHandler();
      paths.addMapping(new ServletPathSpec(""), console);
      paths.addMapping(new ServletPathSpec("/viewer/*"), console);
      paths.addMapping(new ServletPathSpec("/console/*"), console);
      paths.addMapping(new ServletPathSpec("/"), router);
      jetty.setHandler(new ConnectNotTunnelled(paths));
      jetty.setErrorHandler(new JsonErrors());
      jetty.setStopTimeout(JETTY_STOP.toMillis()); // the drain (close) waited for the requests
      try {
        hub.start();
        jetty.start();
      } catch (Exception e) {
        hub.close();
        try {
          jetty.stop();
        } catch (Exception ignored) {
          // nothing more to release
        }
        throw CannotListenException.of(
            "the Legio API",
            config.bind(),
            config.port(),
            e,
            "choose another [server] port (0 picks a free one) or bind in legio.toml");
      }
      parts.engine().setSessionEventListener(hub);
      URI url =
          URI.create(
              "http://" + ListeningConnector.address(config.bind(), connector.getLocalPort()));
      log.info("serving the Legio API at {}", url);
      LegioServer server =
          new LegioServer(
              jetty, router, hub, parts, url, parts.settings().shutdownGrace(), readiness);
      server.gateways = gateways;
      if (nodes != null) {
        URI advertised = advertised(url, connector.getLocalPort());
        affinity.serving(advertised);
        server.announcer =
            new NodeAnnouncer(
                nodes, node, advertised, parts.settings().leaseDuration(), parts.clock());
      }
      return server;
    }

    /** Where the other nodes reach this one: {@code [server] advertise_url}, else its address. */
    private URI advertised(URI url, int port) {
      if (!config.advertiseUrl().isEmpty()) {
        return URI.create(config.advertiseUrl());
      }
      String bind = config.bind();
      if (ListeningConnector.isEveryInterface(bind)) {
        return URI.create("http://" + node + ":" + port);
      }
      return url;
    }
  }

  /** Where clients connect: {@code http://127.0.0.1:8740}. */
  public URI url() {
    return url;
  }

  /** The routes served, as {@code METHOD TEMPLATE}. */
  public List<String> routes() {
    return router.routes().stream().map(r -> r.method() + " " + r.template()).toList();
  }

  /**
   * Stops: new requests get 503, the chat gateways take no new message, event streams end, requests
   * and turns in flight (the gateways' and the tasks' too) may finish within the shutdown grace
   * ({@code [sessions] shutdown_grace_seconds}); then the gateways close and the listener closes.
   * Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    readiness.drain();
    if (announcer != null) {
      announcer.close(); // other nodes stop sending turns here
    }
    router.refuseNewRequests();
    gateways.stopTaking();
    parts.engine().setSessionEventListener(dev.legio.session.SessionEventListener.NONE);
    hub.close();
    if (!awaitQuiet(grace)) {
      // Turns still running: interrupted now, their callers (still connected) hear so.
      parts.engine().interruptTurns();
      parts.tasks().interruptTurns();
      if (!awaitQuiet(ANSWER_INTERRUPTED)) {
        log.warn("{} request(s) still unanswered at shutdown; closing them", router.inFlight());
      }
    }
    gateways.close(); // their turns are over: what they owe stays in their outboxes
    try {
      jetty.stop();
    } catch (Exception e) {
      log.warn("stopping the Legio API failed", e);
    }
    log.info("the Legio API stopped");
  }

  /**
   * Waits up to {@code max} until no request is in flight and no turn runs (the chat gateways'
   * turns and the tasks' included); true when all is quiet.
   */
  private boolean awaitQuiet(Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    while (!quiet() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return quiet();
  }

  private boolean quiet() {
    return router.inFlight() == 0 && parts.engine().idle() && parts.tasks().idle();
  }
}
