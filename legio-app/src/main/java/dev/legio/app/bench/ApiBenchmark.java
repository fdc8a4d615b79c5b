package dev.legio.app.bench;

import dev.legio.app.LegioApp;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.EngineThreadPriority;
import dev.legio.app.server.LegioServer;
import dev.legio.app.server.Role;
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
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code legio bench api}: {@code POST /api/v1/messages} to one agent on the offline model, end to
 * end over loopback, from N concurrent clients (each with its own agent, so that no request waits
 * for another's turn), to the server as {@code legio serve} runs it ({@link LegioServer#asServed}:
 * its metrics, readiness and node directory included; MCP aside). The engine's own time per request
 * comes from the response's {@code Server-Timing} header; the API's overhead is the difference, per
 * request. Prints key=value figures.
 *
 * <p>Each client is a platform thread sending one request at a time on a kept-alive connection of
 * its own and reading the answer on the same thread ({@link LoadClient}), as a worker calling Legio
 * would. The clients share the cores with the server, so their own work is kept small: with OkHttp
 * their time (and its watchdog's) queued with the server's and was counted as the API's; the JDK's
 * asynchronous client hands each answer across three threads (docs/BENCHMARKS.md). The clients warm
 * up until the JIT has settled ({@link JitWarmUp}) and go straight on into the measured requests
 * ({@link ClosedLoopLoad}), so that the figures are the steady state, not compilation or a
 * stampede.
 */
public final class ApiBenchmark {
  /**
   * The run: concurrent clients, the requests they send in all, the warm-up's bounds, the server's
   * {@code [server] engine_priority}, and whether a {@link WakeUpLateness} probe runs beside the
   * load (it costs the server a wake-up a millisecond, so it is asked for).
   */
  public record Settings(
      int clients,
      int requests,
      Duration minWarmUp,
      Duration maxWarmUp,
      EnginePriority enginePriority,
      boolean wakeUpProbe) {
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
    public Settings(
        int clients,
        int requests,
        Duration maxWarmUp,
        EnginePriority enginePriority,
        boolean wakeUpProbe) {
      this(
          clients,
          requests,
          Duration.ofSeconds(Math.min(10, maxWarmUp.toSeconds())),
          maxWarmUp,
          enginePriority,
          wakeUpProbe);
    }
  }

  /** How long a client waits for any byte of an answer before its request fails. */
  static final Duration STALL = Duration.ofSeconds(60);

  /** The largest answer a client reads (a reply of the offline model is a few hundred bytes). */
  static final int MAX_ANSWER_BYTES = 4 * 1024 * 1024;

  private static final String MESSAGES = "/api/v1/messages";

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
        // The server as `legio serve` runs it (MCP aside), with the engine's threads at the
        // priority asked for and the lease heartbeat started before them.
        HeldLeases.shared().startHeartbeat();
        LegioServer server =
            LegioServer.asServed(app, Clock.systemUTC(), tokens)
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
    LoadClient[] connections = new LoadClient[agents.length];
    for (int c = 0; c < connections.length; c++) {
      connections[c] = new LoadClient(url, STALL, MAX_ANSWER_BYTES);
    }
    Map<String, String> headers = Map.of("Authorization", "Bearer " + token);
    AtomicLong sent = new AtomicLong();
    ClosedLoopLoad load =
        new ClosedLoopLoad(
            agents.length,
            client -> {
              String body =
                  "{\"text\": \"@" + agents[client] + " turn " + sent.incrementAndGet() + "\"}";
              long start = System.nanoTime();
              LoadClient.Answer answer = connections[client].post(MESSAGES, headers, body);
              long elapsed = System.nanoTime() - start;
              String timing = answer.header("Server-Timing");
              boolean ok = answer.status() == 200 && !answer.body().contains("\"error\":true");
              return new ClosedLoopLoad.Sample(
                  elapsed, timing(timing, "engine"), timing(timing, "api"), ok);
            });
    err.println(
        "warming up until the JIT settles (at least "
            + settings.minWarmUp().toSeconds()
            + " s, at most "
            + settings.maxWarmUp().toSeconds()
            + " s)");
    err.flush();
    ClosedLoopLoad.Result result;
    OptionalDouble othersPercent;
    OptionalDouble lateP50 = OptionalDouble.empty();
    OptionalDouble lateP99 = OptionalDouble.empty();
    try (OtherProcessesCpu others = OtherProcessesCpu.readingThroughWarmUp();
        WakeUpLateness late = settings.wakeUpProbe() ? WakeUpLateness.start() : null) {
      result =
          load.run(
              new JitWarmUp(settings.minWarmUp(), settings.maxWarmUp()),
              settings.requests(),
              late == null ? others : ClosedLoopLoad.Window.all(late, others));
      othersPercent = others.percent();
      if (late != null) {
        lateP50 = late.percentileMillis(50);
        lateP99 = late.percentileMillis(99);
      }
    } finally {
      for (LoadClient connection : connections) {
        connection.close();
      }
    }

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
    print("measured_from", result.began());
    print("measured_to", result.began().plus(result.measured()).truncatedTo(ChronoUnit.MILLIS));
    othersPercent.ifPresent(p -> print("others_cpu_percent", BenchSupport.fmt(p)));
    lateP50.ifPresent(p -> print("wake_up_lateness_p50_ms", BenchSupport.fmt(p)));
    lateP99.ifPresent(p -> print("wake_up_lateness_p99_ms", BenchSupport.fmt(p)));
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
