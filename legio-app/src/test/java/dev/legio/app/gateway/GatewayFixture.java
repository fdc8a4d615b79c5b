package dev.legio.app.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.app.cli.Main;
import dev.legio.app.conversation.Conversations;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.LegioServer;
import dev.legio.app.server.Role;
import dev.legio.app.server.ServerParts;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ForwardingModelBackend;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TurnResult;
import dev.legio.backend.TurnStart;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.delivery.DeliveryLedger;
import dev.legio.session.SessionEngine;
import dev.legio.session.TurnListener;
import dev.legio.transcript.TranscriptRecorder;
import dev.legio.workspace.Workspace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Legio's real server on a free loopback port over a fresh workspace ({@code legio init}), with the
 * chat gateways a test builds (against its fake platform) mounted and started, and the offline
 * model behind a script: {@link #replies} may answer a turn with a text of the test's own (long
 * replies, hostile text). Every session the model opens is in {@link #opened} (its owner and role).
 * The workspace outlives {@link #restart()}: a restart is a new process on the same database.
 */
public final class GatewayFixture implements AutoCloseable {
  /** Builds the gateways under test from the shared paths and the store's delivery ledger. */
  @FunctionalInterface
  public interface Gateways {
    List<Gateway> build(LegioApp app, Conversations doors, DeliveryLedger deliveries);
  }

  public final Path root;
  public final Map<String, String> env;
  public final List<SessionSpec> opened = new CopyOnWriteArrayList<>();
  public final HttpClient http = HttpClient.newHttpClient();
  public volatile Function<String, String> replies = message -> null;
  private final Gateways builder;
  public LegioApp app;
  public SessionEngine engine;
  public LegioServer server;
  public dev.legio.app.gateway.Gateways gateways;
  public String operatorToken;

  /**
   * @param tomlEdits edits of the fresh legio.toml (the store, [channels.roles], ...)
   */
  public GatewayFixture(
      Path dir, Map<String, String> env, Function<String, String> tomlEdits, Gateways builder)
      throws Exception {
    StringWriter out = new StringWriter();
    int code =
        Main.run(
            new String[] {"init", "legion"},
            Map.of(),
            dir,
            new PrintWriter(out, true),
            new PrintWriter(out, true));
    assertThat(code).as(out.toString()).isZero();
    root = dir.resolve("legion");
    Path toml = root.resolve("legio.toml");
    Files.writeString(
        toml,
        tomlEdits.apply(
            Files.readString(toml)
                .replace("\nport = 8740", "\nport = 0")
                .replace("http_port = 8740", "http_port = 0")
                .replace("kind = \"auto\"", "kind = \"offline\"")));
    this.env = env;
    this.builder = builder;
    open();
  }

  private void open() {
    app = LegioApp.open(new Workspace(root), env, Clock.systemUTC());
    engine =
        SessionEngine.builder()
            .messageLog(app.messageLog())
            .store(app.sessions())
            .agents(app.agents())
            .backend(new ScriptedBackend(new OfflineBackend()))
            .settings(app.config().sessions())
            .clock(Clock.systemUTC())
            .turnListener(TurnListener.inOrder(new TranscriptRecorder(app.transcripts())))
            .build();
    ServerParts parts =
        new ServerParts(
            engine,
            app.messageLog(),
            app.sessions(),
            app.transcripts(),
            app.memoria(),
            app.agents(),
            app.config().sessions(),
            Clock.systemUTC(),
            app.usage(),
            app.historyEditor(),
            app.tasks());
    ApiTokens tokens = new ApiTokens(app.workspace().castra());
    operatorToken = tokens.create("op-" + System.nanoTime(), Role.OPERATOR, List.of()).secret();
    gateways =
        new dev.legio.app.gateway.Gateways(
            builder.build(app, parts.conversations(), app.store().deliveries()));
    server = LegioServer.builder(app.config().server(), parts, tokens).gateways(gateways).start();
    gateways.start();
  }

  /** Stops everything and starts again on the same workspace and database. */
  public void restart() {
    stop();
    open();
  }

  public URI uri(String path) {
    return server.url().resolve(path);
  }

  /** POSTs {@code body} to {@code path} with {@code headers} (name, value, name, value...). */
  public HttpResponse<String> post(String path, String body, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json");
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(
        b.POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<String> get(String path, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The health of the gateway {@code name}. */
  public GatewayHealth health(String name) {
    return gateways.health().stream().filter(h -> h.name().equals(name)).findFirst().orElseThrow();
  }

  private void stop() {
    gateways.close();
    server.close();
    engine.close();
    app.close();
  }

  @Override
  public void close() {
    stop();
  }

  /**
   * A script for {@link #replies}: a message holding "slow" counts {@code running} down and is
   * answered "the model's answer" once {@code release} is (interrupted, it fails, as real
   * back-ends' requests do); any other is answered by {@code others}.
   */
  public static Function<String, String> slowOnesWaitFor(
      java.util.concurrent.CountDownLatch running,
      java.util.concurrent.CountDownLatch release,
      Function<String, String> others) {
    return message -> {
      if (!message.contains("slow")) {
        return others.apply(message);
      }
      running.countDown();
      try {
        release.await(60, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        throw new dev.legio.backend.BackendException("the request was interrupted");
      }
      return "the model's answer";
    };
  }

  /** Waits up to 30 s for {@code condition}, failing the test when it does not hold by then. */
  public static void await(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 30 s");
      }
      Thread.sleep(10);
    }
  }

  /** A sleeper that records each wait and waits at most 20 ms of it (so retries run quickly). */
  public static final class Sleeps implements RetryPolicy.Sleeper {
    public final List<Duration> asked = new CopyOnWriteArrayList<>();

    @Override
    public void sleep(Duration duration) throws InterruptedException {
      asked.add(duration);
      Thread.sleep(Math.min(20, duration.toMillis()));
    }
  }

  /** The offline model, except that a turn the test scripts with {@link #replies} answers so. */
  private final class ScriptedBackend extends ForwardingModelBackend {
    ScriptedBackend(ModelBackend inner) {
      super(inner);
    }

    @Override
    public BackendSession open(SessionSpec spec) {
      opened.add(spec);
      return super.open(spec);
    }

    @Override
    protected TurnResult send(
        BackendSession session,
        String userMessage,
        Consumer<BackendEvent> events,
        TurnStart start) {
      TurnResult offline = session.send(userMessage, events, start);
      String scripted = replies.apply(userMessage);
      return scripted == null
          ? offline
          : new TurnResult(scripted, offline.usage(), offline.context());
    }
  }
}
