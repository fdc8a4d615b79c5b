package dev.legio.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.app.LegioApp;
import dev.legio.app.cli.Main;
import dev.legio.app.metrics.LegioMetrics;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ForwardingModelBackend;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.TurnResult;
import dev.legio.backend.TurnStart;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.config.ServerSettings;
import dev.legio.config.SessionSettings;
import dev.legio.session.SessionEngine;
import dev.legio.session.TurnListener;
import dev.legio.task.TaskSessions;
import dev.legio.transcript.TranscriptRecorder;
import dev.legio.usage.UsageRecorder;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A running Legio server on a free loopback port over a fresh workspace ({@code legio init}), with
 * the offline model behind a gate: a turn whose message holds {@code #hold} waits until {@link
 * #release} (for busy sessions and shutdown while a request streams); the task sessions run on the
 * same gated model. Tokens: operator, a gateway for telegram, a task token, a metrics token (a
 * scraper's). {@code GET /metrics} serves {@link #metrics}, watching the fixture's engine, store
 * and pool.
 */
final class ServerFixture implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  final Path root;
  final LegioApp app;
  final SessionEngine engine;
  final TaskSessions tasks;
  volatile LegioServer server;
  private final ServerParts parts;
  private final ApiTokens tokens;
  final String operator;
  final String gateway;
  final String task;
  final String scraper;
  final LegioMetrics metrics;
  final HttpClient http = HttpClient.newHttpClient();
  final CountDownLatch held = new CountDownLatch(1);

  /** The thread of every turn the back-end was sent, in order. */
  final List<Thread> turnThreads = new java.util.concurrent.CopyOnWriteArrayList<>();

  volatile CountDownLatch gate = new CountDownLatch(1);

  /** How long a node of several waits for another node's answer to a turn it sent there. */
  static final Duration RELAY_ANSWER_WITHIN = Duration.ofSeconds(3);

  ServerFixture(Path dir, Duration lockWait, int eventBuffer) throws Exception {
    this(dir, lockWait, eventBuffer, Map.of());
  }

  /** A server whose app sees {@code env} (say, {@code LEGIO_DB_URL}: a node on PostgreSQL). */
  ServerFixture(Path dir, Duration lockWait, int eventBuffer, Map<String, String> env)
      throws Exception {
    this(dir, lockWait, eventBuffer, env, Duration.ofSeconds(30));
  }

  /** A server whose shutdown waits {@code shutdownGrace} for the turns in flight. */
  ServerFixture(
      Path dir, Duration lockWait, int eventBuffer, Map<String, String> env, Duration shutdownGrace)
      throws Exception {
    StringWriter out = new StringWriter();
    int code =
        Main.run(
            new String[] {"init", "legion"},
            env,
            dir,
            new PrintWriter(out, true),
            new PrintWriter(out, true));
    assertThat(code).as(out.toString()).isZero();
    root = dir.resolve("legion");
    Path toml = root.resolve("legio.toml");
    Files.writeString(
        toml,
        Files.readString(toml)
            .replace("\nport = 8740", "\nport = 0")
            .replace("http_port = 8740", "http_port = 0")
            .replace("kind = \"auto\"", "kind = \"offline\"")
            .replace(
                "shutdown_grace_seconds = 30",
                "shutdown_grace_seconds = " + shutdownGrace.toSeconds())
            // The app's own engine (its session edits wait there) waits about as long.
            .replace(
                "lock_wait_seconds = 30",
                "lock_wait_seconds = " + Math.max(1, (lockWait.toMillis() + 999) / 1000)));
    app = LegioApp.open(new Workspace(root), env, Clock.systemUTC());
    SessionSettings settings = app.config().sessions().withLockWait(lockWait);
    GatedBackend gated = new GatedBackend(new OfflineBackend());
    tasks =
        new TaskSessions(
            app.agents(),
            gated,
            null,
            app.store().tasks(),
            app.sessions(),
            app.usage(),
            new UsageRecorder(app.usage(), app.prices()),
            settings,
            Clock.systemUTC(),
            app.conversations());
    engine =
        SessionEngine.builder()
            .messageLog(app.messageLog())
            .store(app.sessions())
            .agents(app.agents())
            .backend(gated)
            .settings(settings)
            .clock(Clock.systemUTC())
            .turnListener(
                TurnListener.inOrder(
                    new TranscriptRecorder(app.transcripts()),
                    new UsageRecorder(app.usage(), app.prices())))
            .build();
    parts =
        new ServerParts(
            engine,
            app.messageLog(),
            app.sessions(),
            app.transcripts(),
            app.memoria(),
            app.agents(),
            settings,
            Clock.systemUTC(),
            app.usage(),
            app.historyEditor(),
            tasks,
            app.config().memory().dir());
    tokens = new ApiTokens(app.workspace().castra());
    operator = tokens.create("console", Role.OPERATOR, List.of()).secret();
    gateway = tokens.create("telegram-bot", Role.GATEWAY, List.of("telegram")).secret();
    task = tokens.create("tasks", Role.TASK, List.of()).secret();
    scraper = tokens.create("prometheus", Role.METRICS, List.of()).secret();
    metrics =
        LegioMetrics.watching(
                engine,
                app.sessions(),
                app.messageLog(),
                new UsageRecorder(app.usage(), app.prices())::entryOf)
            .measuringTasks(tasks)
            .withPoolOf(app.store());
    ServerSettings config = app.config().server();
    LegioServer.Builder builder =
        LegioServer.builder(config, parts, tokens)
            .eventBuffer(eventBuffer)
            .pollInterval(Duration.ofMillis(50))
            .metrics(metrics)
            .readiness(Readiness.of(app));
    if (env.containsKey(dev.legio.session.LeaseHolder.NODE_NAME_ENV)) {
      // One of several named nodes: the offline model stands for a back-end whose conversations
      // live on the node's disk, as the Claude CLI's do.
      builder
          .relayAnswerWithin(RELAY_ANSWER_WITHIN)
          .cluster(
              app.store().nodes(),
              app.nodeName(),
              new SessionAffinity(
                  app.store().nodes(),
                  app.sessions(),
                  tasks,
                  app.nodeName(),
                  settings.leaseDuration(),
                  Clock.systemUTC(),
                  java.util.Set.of(gated.kind())));
    }
    server = builder.start();
  }

  /**
   * Stops the server and starts a new one on the same port over the same workspace and engine, as
   * when {@code legio serve} is restarted.
   */
  void restart() {
    restart(dev.legio.app.http.StalledTransfer.IDLE_TIMEOUT);
  }

  /** As {@link #restart()}, with reads and writes failing after {@code idleTimeout} of nothing. */
  void restart(Duration idleTimeout) {
    int port = server.url().getPort();
    server.close();
    ServerSettings config = app.config().server();
    server =
        LegioServer.builder(
                new ServerSettings(config.bind(), port, config.maxBodyBytes()), parts, tokens)
            .pollInterval(Duration.ofMillis(50))
            .idleTimeout(idleTimeout)
            .start();
  }

  void release() {
    gate.countDown();
  }

  /**
   * Posts {@code text} as caesar from another thread and returns once its turn is held at the gate
   * (the text must hold {@code #hold}); the answer comes after {@link #release}.
   */
  CompletableFuture<HttpResponse<String>> postHeld(String text) throws InterruptedException {
    return postHeld("/api/v1/messages", operator, Map.of("text", text));
  }

  /**
   * Posts {@code body} to {@code path} with {@code token} from another thread and returns once its
   * turn is held at the gate (its text must hold {@code #hold}); the answer comes after {@link
   * #release} or the server's drain.
   */
  CompletableFuture<HttpResponse<String>> postHeld(String path, String token, Object body)
      throws InterruptedException {
    return postHeld(path, token, body, Map.of());
  }

  /** As {@link #postHeld(String, String, Object)}, with {@code headers} besides. */
  CompletableFuture<HttpResponse<String>> postHeld(
      String path, String token, Object body, Map<String, String> headers)
      throws InterruptedException {
    CompletableFuture<HttpResponse<String>> pending =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return post(path, token, body, headers);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
    return pending;
  }

  URI uri(String path) {
    return server.url().resolve(path);
  }

  HttpRequest.Builder request(String path, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return b;
  }

  HttpResponse<String> get(String path, String token) throws Exception {
    return http.send(request(path, token).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> delete(String path, String token) throws Exception {
    return http.send(request(path, token).DELETE().build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String path, String token, Object body) throws Exception {
    return postRaw(path, token, "application/json", JSON.writeValueAsString(body));
  }

  /** A JSON POST with {@code headers} besides (an {@code Idempotency-Key}, ...). */
  HttpResponse<String> post(String path, String token, Object body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder b = request(path, token).header("Content-Type", "application/json");
    headers.forEach(b::header);
    return http.send(
        b.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> postRaw(String path, String token, String type, String body)
      throws Exception {
    HttpRequest.Builder b = request(path, token);
    if (type != null) {
      b.header("Content-Type", type);
    }
    return http.send(
        b.POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Sends {@code request} as UTF-8 bytes over a socket (the JDK's client sends only ASCII headers);
   * what comes back until the server closes.
   */
  String raw(String request) throws Exception {
    URI base = uri("/");
    try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      return new String(
          socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  /**
   * The {@code error} of the JSON body of {@code answer}, an HTTP response as {@link #raw} gives.
   */
  /**
   * Stores a record of channel {@code owner} last used {@code ago} (a chat the gateway saw once),
   * active or closed, as the engine would have left it.
   */
  void channelUsed(String owner, Duration ago, boolean closed) {
    java.time.Instant last = java.time.Instant.now().minus(ago);
    app.sessions()
        .save(
            new dev.legio.session.SessionRecord(
                owner,
                java.util.UUID.randomUUID(),
                "offline",
                null,
                "hash",
                null,
                10,
                5,
                1,
                0,
                last.minusSeconds(60),
                last,
                last.plus(Duration.ofDays(30)),
                closed
                    ? dev.legio.session.SessionRecord.State.CLOSED
                    : dev.legio.session.SessionRecord.State.ACTIVE,
                closed ? "idle" : null,
                0,
                null));
  }

  static String rawError(String answer) throws Exception {
    return JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4)).get("error").asText();
  }

  static JsonNode json(HttpResponse<String> response) throws Exception {
    return JSON.readTree(response.body());
  }

  @Override
  public void close() {
    release();
    server.close();
    metrics.close();
    engine.close();
    tasks.close();
    app.close();
  }

  /**
   * The offline model, except that a message holding {@code #hold} waits for the gate (interrupted,
   * it goes on, unless it holds {@code #stop-when-interrupted} too), and one holding {@code #fail}
   * fails with the message as the back-end's error (a back-end that repeats what it was sent,
   * secrets and all).
   */
  final class GatedBackend extends ForwardingModelBackend {
    GatedBackend(ModelBackend inner) {
      super(inner);
    }

    @Override
    protected TurnResult send(
        BackendSession session,
        String userMessage,
        Consumer<BackendEvent> events,
        TurnStart start) {
      turnThreads.add(Thread.currentThread());
      if (userMessage.contains("#fail")) {
        throw new dev.legio.backend.BackendException("the model failed on: " + userMessage);
      }
      if (userMessage.contains("#hold")) {
        events.accept(new BackendEvent.Status("⏳ Holding..."));
        held.countDown();
        try {
          gate.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          if (userMessage.contains("#stop-when-interrupted")) {
            // as the real back-ends do: an interrupted request fails
            throw new dev.legio.backend.BackendException("the request was interrupted");
          }
          Thread.currentThread().interrupt();
        }
      }
      return session.send(userMessage, events, start);
    }
  }
}
