package dev.legio.app.bench;

import dev.legio.app.LegioApp;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.LegioServer;
import dev.legio.app.server.Role;
import dev.legio.app.server.ServerParts;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code legio bench api}: {@code POST /api/v1/messages} to one agent on the offline model, end to
 * end over loopback, from N concurrent clients (each with its own agent, so that no request waits
 * for another's turn). The engine's own time per request comes from the response's {@code
 * Server-Timing} header; the API's overhead is the difference, per request. Prints key=value
 * figures.
 */
public final class ApiBenchmark {
  private static final int WARM_UP_PER_CLIENT = 20;

  /** The run's size: concurrent clients, and the requests they send in all. */
  public record Settings(int clients, int requests) {
    public Settings {
      if (clients < 1 || clients > 1_000) {
        throw new IllegalArgumentException("--clients must be from 1 to 1000, got " + clients);
      }
      if (requests < clients) {
        throw new IllegalArgumentException(
            "--requests must be at least --clients (" + clients + "), got " + requests);
      }
    }
  }

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
        LegioServer server =
            LegioServer.builder(
                    app.config().server(), ServerParts.of(app, Clock.systemUTC()), tokens)
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
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .build();
    URI messages = url.resolve("/api/v1/messages");
    int total = settings.requests();
    long[] turn = new long[total];
    long[] overhead = new long[total];
    long[] serverOverhead = new long[total];
    AtomicInteger failed = new AtomicInteger();
    err.println("warming up: " + WARM_UP_PER_CLIENT + " requests per client");
    err.flush();
    runClients(
        http,
        messages,
        token,
        agents,
        WARM_UP_PER_CLIENT * agents.length,
        null,
        null,
        null,
        failed);
    failed.set(0);
    long t0 = System.nanoTime();
    runClients(http, messages, token, agents, total, turn, overhead, serverOverhead, failed);
    double seconds = (System.nanoTime() - t0) / 1e9;
    print("clients", settings.clients());
    print("requests", total);
    print("failed_requests", failed.get());
    print("api_turn_p50_ms", BenchSupport.fmt(BenchSupport.percentileMillis(turn, 50)));
    print("api_turn_p99_ms", BenchSupport.fmt(BenchSupport.percentileMillis(turn, 99)));
    print("api_overhead_p50_ms", BenchSupport.fmt(BenchSupport.percentileMillis(overhead, 50)));
    print("api_overhead_p99_ms", BenchSupport.fmt(BenchSupport.percentileMillis(overhead, 99)));
    print(
        "api_handler_overhead_p99_ms",
        BenchSupport.fmt(BenchSupport.percentileMillis(serverOverhead, 99)));
    print("requests_per_second", BenchSupport.fmt(total / seconds));
    out.flush();
  }

  private static void runClients(
      HttpClient http,
      URI messages,
      String token,
      String[] agents,
      int requests,
      long[] turn,
      long[] overhead,
      long[] serverOverhead,
      AtomicInteger failed)
      throws Exception {
    try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < agents.length; c++) {
        int client = c;
        running.add(
            clients.submit(
                () -> {
                  // Client c sends requests c, c + clients, c + 2 * clients, ...
                  for (int i = client; i < requests; i += agents.length) {
                    String body = "{\"text\": \"@" + agents[client] + " turn " + i + "\"}";
                    HttpRequest request =
                        HttpRequest.newBuilder(messages)
                            .timeout(Duration.ofSeconds(60))
                            .header("Authorization", "Bearer " + token)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build();
                    long start = System.nanoTime();
                    try {
                      HttpResponse<String> r =
                          http.send(request, HttpResponse.BodyHandlers.ofString());
                      long elapsed = System.nanoTime() - start;
                      if (r.statusCode() != 200 || r.body().contains("\"error\":true")) {
                        failed.incrementAndGet();
                      }
                      if (turn != null) {
                        turn[i] = elapsed;
                        overhead[i] = Math.max(0, elapsed - engineNanos(r));
                        serverOverhead[i] = Math.max(0, timing(r, "api") - engineNanos(r));
                      }
                    } catch (Exception e) {
                      failed.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    }
  }

  /** The engine's time from {@code Server-Timing: engine;dur=MS}. */
  private static long engineNanos(HttpResponse<String> r) {
    return timing(r, "engine");
  }

  /** A figure of the {@code Server-Timing} header, in nanoseconds; 0 when absent. */
  static long timing(HttpResponse<String> r, String name) {
    String header = r.headers().firstValue("Server-Timing").orElse("");
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
