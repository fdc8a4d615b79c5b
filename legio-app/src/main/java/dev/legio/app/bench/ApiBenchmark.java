package dev.legio.app.bench;

import dev.legio.app.LegioApp;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.EngineThreadPriority;
import dev.legio.app.server.LegioServer;
import dev.legio.app.server.Role;
import dev.legio.app.server.ServerParts;
import dev.legio.config.EnginePriority;
import dev.legio.session.HeldLeases;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.ConnectionPool;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * {@code legio bench api}: {@code POST /api/v1/messages} to one agent on the offline model, end to
 * end over loopback, from N concurrent clients (each with its own agent, so that no request waits
 * for another's turn). The engine's own time per request comes from the response's {@code
 * Server-Timing} header; the API's overhead is the difference, per request. Prints key=value
 * figures.
 *
 * <p>Each client is a platform thread sending one request at a time through OkHttp, a blocking
 * client that reads the answer on the calling thread, as a worker calling Legio would; the JDK's
 * asynchronous client hands each answer across three threads, and its own latency (3 to 6 times the
 * API's at 32 clients, docs/BENCHMARKS.md) hid the server's. The clients warm up until the JIT has
 * settled ({@link JitWarmUp}) and go straight on into the measured requests ({@link
 * ClosedLoopLoad}), so that the figures are the steady state, not compilation or a stampede.
 */
public final class ApiBenchmark {
  /**
   * The run: concurrent clients, the requests they send in all, the warm-up's bounds, and the
   * server's {@code [server] engine_priority}.
   */
  public record Settings(
      int clients,
      int requests,
      Duration minWarmUp,
      Duration maxWarmUp,
      EnginePriority enginePriority) {
    public Settings {
      if (clients < 1 || clients > 1_000) {
        throw new IllegalArgumentException("--clients must be from 1 to 1000, got " + clients);
      }
      if (requests < clients) {
        throw new IllegalArgumentException(
            "--requests must be at least --clients (" + clients + "), got " + requests);
      }
      if (maxWarmUp.isNegative() || maxWarmUp.compareTo(minWarmUp) < 0) {
        throw new IllegalArgumentException(
            "--max-warm-up must be at least "
                + minWarmUp.toSeconds()
                + " seconds, got "
                + maxWarmUp.toSeconds());
      }
    }

    /** The command line's run: at least 10 s of warm-up, then until the JIT settles. */
    public Settings(int clients, int requests, Duration maxWarmUp, EnginePriority enginePriority) {
      this(
          clients,
          requests,
          Duration.ofSeconds(Math.min(10, maxWarmUp.toSeconds())),
          maxWarmUp,
          enginePriority);
    }
  }

  /** How long a client waits for any byte of an answer before its request fails. */
  static final Duration STALL = Duration.ofSeconds(60);

  private final Settings settings;
  private final PrintWriter out;
  private final PrintWriter err;

  public ApiBenchmark(Settings settings, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.out = out;
    this.err = err;
  }

  public void run() throws Exception {
    Path dir = Files.createTempDirectory("legio-bench-api");
    try {
      Workspace workspace = new Workspace(dir);
      WorkspaceInitializer.initialise(workspace);
      Path toml = workspace.configFile();
      Files.writeString(
          toml,
          Files.readString(toml)
              .replace("kind = \"auto\"", "kind = \"offline\"")
              .replace("\nport = 8740", "\nport = 0")
              .replace("http_port = 8740", "http_port = 0"));
      String[] agents = new String[settings.clients()];
      for (int i = 0; i < agents.length; i++) {
        agents[i] = "agent" + i;
        Path prompt = workspace.castra().resolve("centuriones/" + agents[i] + "/prompt.md");
        Files.createDirectories(prompt.getParent());
        Files.writeString(
            prompt, "---\ndescription: Bench agent " + i + "\n---\nAgent " + i + ".\n");
      }
      try (LegioApp app = LegioApp.open(workspace, Map.of(), Clock.systemUTC())) {
        ApiTokens tokens = new ApiTokens(workspace.castra());
        String token = tokens.create("bench", Role.OPERATOR, List.of()).secret();
        // The server as `legio serve` runs it, with the engine's threads at the priority asked for
        // and the lease heartbeat started before them.
        HeldLeases.shared().startHeartbeat();
        LegioServer server =
            LegioServer.builder(
                    app.config().server(), ServerParts.of(app, Clock.systemUTC()), tokens)
                .enginePriority(EngineThreadPriority.of(settings.enginePriority()))
                .start();
        try {
          measure(server.url(), token, agents);
        } finally {
          server.close();
        }
      }
    } finally {
      BenchSupport.deleteTree(dir);
    }
  }

  private void measure(URI url, String token, String[] agents) throws Exception {
    OkHttpClient http =
        new OkHttpClient.Builder()
            // One kept-alive connection per client, as each client sends one request at a time.
            .connectionPool(new ConnectionPool(agents.length, 5, TimeUnit.MINUTES))
            // A stalled answer fails at the socket (SO_TIMEOUT), not through Okio's watchdog: its
            // timeouts take one lock shared by every client at each read and write and wake its
            // thread, the clients' costliest step (docs/BENCHMARKS.md).
            .socketFactory(new StallTimeoutSockets(STALL))
            .readTimeout(Duration.ZERO)
            .writeTimeout(Duration.ZERO)
            .build();
    HttpUrl messages = HttpUrl.get(url.resolve("/api/v1/messages").toString());
    MediaType json = MediaType.get("application/json");
    AtomicLong sent = new AtomicLong();
    ClosedLoopLoad load =
        new ClosedLoopLoad(
            agents.length,
            client -> {
              String body =
                  "{\"text\": \"@" + agents[client] + " turn " + sent.incrementAndGet() + "\"}";
              Request request =
                  new Request.Builder()
                      .url(messages)
                      .header("Authorization", "Bearer " + token)
                      .post(RequestBody.create(body, json))
                      .build();
              long start = System.nanoTime();
              try (Response r = http.newCall(request).execute()) {
                String answer = r.body().string();
                long elapsed = System.nanoTime() - start;
                String timing = r.header("Server-Timing", "");
                boolean ok = r.code() == 200 && !answer.contains("\"error\":true");
                return new ClosedLoopLoad.Sample(
                    elapsed, timing(timing, "engine"), timing(timing, "api"), ok);
              }
            });
    err.println(
        "warming up until the JIT settles (at least "
            + settings.minWarmUp().toSeconds()
            + " s, at most "
            + settings.maxWarmUp().toSeconds()
            + " s)");
    err.flush();
    ClosedLoopLoad.Result result =
        load.run(new JitWarmUp(settings.minWarmUp(), settings.maxWarmUp()), settings.requests());
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();

    int total = result.samples().size();
    long[] turn = new long[total];
    long[] overhead = new long[total];
    long[] handlerOverhead = new long[total];
    for (int i = 0; i < total; i++) {
      ClosedLoopLoad.Sample s = result.samples().get(i);
      turn[i] = s.turnNanos();
      overhead[i] = Math.max(0, s.turnNanos() - s.engineNanos());
      handlerOverhead[i] = Math.max(0, s.handlerNanos() - s.engineNanos());
    }
    double seconds = result.measured().toNanos() / 1e9;
    print("clients", settings.clients());
    print("requests", total);
    print("failed_requests", result.failed());
    print("api_turn_p50_ms", BenchSupport.fmt(BenchSupport.percentileMillis(turn, 50)));
    print("api_turn_p99_ms", BenchSupport.fmt(BenchSupport.percentileMillis(turn, 99)));
    print("api_overhead_p50_ms", BenchSupport.fmt(BenchSupport.percentileMillis(overhead, 50)));
    print("api_overhead_p99_ms", BenchSupport.fmt(BenchSupport.percentileMillis(overhead, 99)));
    print(
        "api_handler_overhead_p99_ms",
        BenchSupport.fmt(BenchSupport.percentileMillis(handlerOverhead, 99)));
    print("requests_per_second", BenchSupport.fmt(total / seconds));
    print("engine_priority", settings.enginePriority().label());
    print("warm_up_seconds", BenchSupport.fmt(result.warmUp().took().toMillis() / 1e3));
    print("jit_settled", result.warmUp().settled());
    print("jit_ms_while_measured", result.jitMillisMeasuring());
    out.flush();
  }

  /** A figure of a {@code Server-Timing} header, in nanoseconds; 0 when absent. */
  static long timing(String header, String name) {
    for (String part : header.split(",")) {
      String p = part.strip();
      if (p.startsWith(name + ";dur=")) {
        return (long) (Double.parseDouble(p.substring(name.length() + 5)) * 1e6);
      }
    }
    return 0;
  }

  private void print(String key, Object value) {
    out.println(key + "=" + value);
  }
}
