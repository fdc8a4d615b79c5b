package dev.legio.app.bench;

import dev.legio.app.LegioApp;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.LegioServer;
import dev.legio.app.server.Role;
import dev.legio.app.server.ServerParts;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * API's at 32 clients, docs/BENCHMARKS.md) hid the server's. 100 requests per client warm the JIT
 * first, so that the figures are the steady state, not compilation.
 */
public final class ApiBenchmark {
  private static final int WARM_UP_PER_CLIENT = 100;

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
    OkHttpClient http =
        new OkHttpClient.Builder()
            // One kept-alive connection per client, as each client sends one request at a time.
            .connectionPool(new ConnectionPool(agents.length, 5, TimeUnit.MINUTES))
            .readTimeout(Duration.ofSeconds(60))
            .build();
    HttpUrl messages = HttpUrl.get(url.resolve("/api/v1/messages").toString());
    int total = settings.requests();
    long[] turn = new long[total];
    long[] overhead = new long[total];
    long[] serverOverhead = new long[total];
    AtomicInteger failed = new AtomicInteger();
    err.println("warming up: " + WARM_UP_PER_CLIENT + " requests per client");
    err.flush();
    runClients(http, messages, token, agents, WARM_UP_PER_CLIENT * agents.length, null, failed);
    failed.set(0);
    long t0 = System.nanoTime();
    runClients(
        http,
        messages,
        token,
        agents,
        total,
        new long[][] {turn, overhead, serverOverhead},
        failed);
    double seconds = (System.nanoTime() - t0) / 1e9;
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
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

  /**
   * Runs the clients, each on a platform thread of its own sending its requests one after the
   * other; {@code figures} (null while warming up) gets each request's end-to-end time, overhead
   * and handler overhead, in nanoseconds.
   */
  private static void runClients(
      OkHttpClient http,
      HttpUrl messages,
      String token,
      String[] agents,
      int requests,
      long[][] figures,
      AtomicInteger failed)
      throws InterruptedException {
    MediaType json = MediaType.get("application/json");
    List<Thread> clients = new ArrayList<>(agents.length);
    for (int c = 0; c < agents.length; c++) {
      int client = c;
      clients.add(
          Thread.ofPlatform()
              .name("legio-bench-client-" + c)
              .start(
                  () -> {
                    // Client c sends requests c, c + clients, c + 2 * clients, ...
                    for (int i = client; i < requests; i += agents.length) {
                      String body = "{\"text\": \"@" + agents[client] + " turn " + i + "\"}";
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
                        if (r.code() != 200 || answer.contains("\"error\":true")) {
                          failed.incrementAndGet();
                        }
                        if (figures != null) {
                          String timing = r.header("Server-Timing", "");
                          long engine = timing(timing, "engine");
                          figures[0][i] = elapsed;
                          figures[1][i] = Math.max(0, elapsed - engine);
                          figures[2][i] = Math.max(0, timing(timing, "api") - engine);
                        }
                      } catch (IOException | RuntimeException e) {
                        failed.incrementAndGet();
                      }
                    }
                  }));
    }
    for (Thread t : clients) {
      t.join();
    }
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
