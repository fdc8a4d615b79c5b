package dev.legio.app.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code legio bench cluster}: several {@code legio serve} nodes ({@link ClusterNodes}) on one
 * PostgreSQL schema, clients posting channel messages round-robin over the nodes (retrying on the
 * next node when one is down or refuses), one node SIGKILLed and restarted every {@code killEvery}.
 * Each client speaks on a channel of its own ({@code bench:N}), so every channel's session moves
 * between nodes as they die. It prints:
 *
 * <ul>
 *   <li>{@code requests_ok}: requests answered 200 with a reply (after retries);
 *   <li>{@code requests_failed_final}: requests never answered within {@link #REQUEST_DEADLINE};
 *   <li>{@code messages_lost}: acknowledged requests absent from the log;
 *   <li>{@code replies_missing}: acknowledged replies absent from the log, or not replying to their
 *       request;
 *   <li>{@code replies_duplicated}: requests in the log answered more than once;
 *   <li>{@code double_driven_turns}: two turns of one session overlapping in time, from the usage
 *       ledger (each turn from its lease to its reply);
 *   <li>{@code failover_p99_s}: the 99th percentile, over every kill and every channel whose last
 *       answer came from the killed node, of the time from the kill to that channel's next answer.
 * </ul>
 */
public final class ClusterBenchmark {
  /** How long one request is retried before it counts as failed. */
  static final Duration REQUEST_DEADLINE = Duration.ofMinutes(2);

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What to run. */
  public record Settings(
      int nodes,
      int clients,
      int requests,
      Duration killEvery,
      Duration pause,
      boolean separateHosts,
      String postgresUrl) {
    public Settings {
      if (pause.isNegative()) {
        throw new IllegalArgumentException("--pause must not be negative");
      }
      if (nodes < 2 || clients < 1 || requests < 1) {
        throw new IllegalArgumentException(
            "--nodes must be at least 2, --clients and --requests at least 1");
      }
      if (killEvery.isNegative() || killEvery.isZero()) {
        throw new IllegalArgumentException("--kill-every must be positive, e.g. 20s");
      }
    }
  }

  /** The figures of one run. */
  public record Figures(
      int kills,
      int requestsOk,
      int requestsFailedFinal,
      int repliesMissing,
      int repliesDuplicated,
      int messagesLost,
      int doubleDrivenTurns,
      double failoverP99Seconds,
      double elapsedSeconds) {}

  /** A request answered: its id and its reply's, by which node, when. */
  private record Acknowledged(UUID request, UUID reply, String channel, int node, long atNanos) {}

  /** A kill: which node, when. */
  private record Kill(int node, long atNanos) {}

  private final Settings settings;
  private final PrintWriter out;
  private final PrintWriter err;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final List<Acknowledged> acknowledged = new CopyOnWriteArrayList<>();
  private final List<Kill> kills = new CopyOnWriteArrayList<>();

  /** Per channel, the node of its last answer (for the failover figure). */
  public ClusterBenchmark(Settings settings, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.out = out;
    this.err = err;
  }

  /** Runs the bench, prints the figures and returns them. */
  public Figures run() throws Exception {
    Path dir = Files.createTempDirectory("legio-cluster-");
    err.println("workspaces and each node's output: " + dir);
    err.flush();
    String schema =
        "legio_cluster_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    String base = settings.postgresUrl();
    try (Connection c = DriverManager.getConnection(base);
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
    }
    String url = base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("LEGIO_DB_URL", url);
    try (ClusterNodes cluster = new ClusterNodes(dir, settings.nodes(), env)) {
      cluster.separateHosts = settings.separateHosts();
      for (ClusterNodes.Node n : cluster.nodes()) {
        cluster.start(n);
        // One at a time: the first migrates the schema.
        if (!cluster.awaitReady(n)) {
          throw new IllegalStateException(
              "node " + (n.index + 1) + " did not become ready; see its output in " + dir);
        }
      }
      long started = System.nanoTime();
      AtomicLong failed = new AtomicLong();
      AtomicInteger next = new AtomicInteger();
      ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < settings.clients(); c++) {
        int client = c;
        running.add(
            clients.submit(
                () -> {
                  for (int r = next.getAndIncrement();
                      r < settings.requests();
                      r = next.getAndIncrement()) {
                    if (!send(cluster, client, r)) {
                      failed.incrementAndGet();
                    }
                    if (!settings.pause().isZero()) {
                      Thread.sleep(settings.pause().toMillis());
                    }
                  }
                  return null;
                }));
      }
      Thread killer = Thread.ofPlatform().name("bench-cluster-killer").start(() -> kill(cluster));
      for (Future<?> f : running) {
        f.get();
      }
      killer.interrupt();
      killer.join();
      clients.shutdown();
      double elapsed = (System.nanoTime() - started) / 1e9;
      Figures figures = analyse(url, (int) failed.get(), elapsed);
      print(figures);
      return figures;
    } finally {
      try (Connection c = DriverManager.getConnection(base);
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      } catch (SQLException e) {
        err.println("could not drop the schema " + schema + ": " + e.getMessage());
      }
    }
  }

  /** Every {@code killEvery}: SIGKILL the next node, restart it, wait until it is ready. */
  private void kill(ClusterNodes cluster) {
    int victim = 0;
    try {
      while (true) {
        Thread.sleep(settings.killEvery().toMillis());
        ClusterNodes.Node node = cluster.nodes().get(victim);
        victim = (victim + 1) % cluster.nodes().size();
        cluster.kill(node);
        kills.add(new Kill(node.index, System.nanoTime()));
        err.println("killed node " + (node.index + 1) + "; restarting it");
        err.flush();
        cluster.start(node);
        if (!cluster.awaitReady(node)) {
          err.println("node " + (node.index + 1) + " did not come back");
        }
      }
    } catch (InterruptedException e) {
      // the clients are done
    } catch (IOException e) {
      err.println("restarting a node failed: " + e.getMessage());
    }
  }

  /** Sends request {@code r} of {@code client}, retrying on the next node; true when answered. */
  private boolean send(ClusterNodes cluster, int client, int r) throws InterruptedException {
    String channel = "bench:c" + client;
    String body;
    try {
      body = JSON.writeValueAsString(Map.of("text", "request " + r + " of client " + client));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    List<ClusterNodes.Node> nodes = cluster.nodes();
    int node = (client + r) % nodes.size();
    long deadline = System.nanoTime() + REQUEST_DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      ClusterNodes.Node n = nodes.get(node);
      try {
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(
                        URI.create(n.url + "/api/v1/channels/" + channel + "/messages"))
                    .timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + cluster.token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          JsonNode answer = JSON.readTree(response.body());
          JsonNode reply = answer.get("reply");
          if (reply != null && !reply.path("error").asBoolean() && reply.hasNonNull("id")) {
            acknowledged.add(
                new Acknowledged(
                    UUID.fromString(answer.at("/request/id").asText()),
                    UUID.fromString(reply.get("id").asText()),
                    channel,
                    n.index,
                    System.nanoTime()));
            return true;
          }
        }
      } catch (IOException e) {
        // down or dying: the next node
      }
      node = (node + 1) % nodes.size();
      Thread.sleep(50);
    }
    return false;
  }

  private Figures analyse(String url, int failedFinal, double elapsed) throws SQLException {
    Set<UUID> logged = new HashSet<>();
    Map<UUID, UUID> replyTo = new HashMap<>();
    Map<UUID, Integer> repliesPerRequest = new HashMap<>();
    Map<String, List<long[]>> turns = new HashMap<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      try (ResultSet rows = s.executeQuery("SELECT id, reply_to FROM nuntii")) {
        while (rows.next()) {
          UUID id = rows.getObject(1, UUID.class);
          UUID to = rows.getObject(2, UUID.class);
          logged.add(id);
          if (to != null) {
            replyTo.put(id, to);
            repliesPerRequest.merge(to, 1, Integer::sum);
          }
        }
      }
      try (ResultSet rows =
          s.executeQuery(
              "SELECT owner, at, duration_ms FROM usage_ledger WHERE duration_ms IS NOT NULL AND outcome = 'ok'")) {
        while (rows.next()) {
          Timestamp at = rows.getTimestamp(2);
          long endMicros = at.getTime() * 1000 + (at.getNanos() / 1000) % 1000;
          long startMicros = endMicros - rows.getLong(3) * 1000;
          turns
              .computeIfAbsent(rows.getString(1), k -> new ArrayList<>())
              .add(new long[] {startMicros, endMicros});
        }
      }
    }
    int lost = 0;
    int missing = 0;
    for (Acknowledged a : acknowledged) {
      if (!logged.contains(a.request())) {
        lost++;
      }
      if (!a.request().equals(replyTo.get(a.reply()))) {
        missing++;
      }
    }
    int duplicated = (int) repliesPerRequest.values().stream().filter(n -> n > 1).count();
    int overlapping = 0;
    for (List<long[]> list : turns.values()) {
      list.sort((a, b) -> Long.compare(a[0], b[0]));
      long end = Long.MIN_VALUE;
      for (long[] t : list) {
        if (t[0] < end) {
          overlapping++;
        }
        end = Math.max(end, t[1]);
      }
    }
    return new Figures(
        kills.size(),
        acknowledged.size(),
        failedFinal,
        missing,
        duplicated,
        lost,
        overlapping,
        failoverP99(),
        elapsed);
  }

  /**
   * For each kill, each channel whose last answer before the kill came from the killed node: the
   * time to its next answer (from any node). The 99th percentile, in seconds; 0 without kills.
   */
  private double failoverP99() {
    List<Acknowledged> byTime = new ArrayList<>(acknowledged);
    byTime.sort((a, b) -> Long.compare(a.atNanos(), b.atNanos()));
    List<Long> waits = new ArrayList<>();
    for (Kill k : kills) {
      Map<String, Integer> last = new HashMap<>();
      Map<String, Long> nextAfter = new HashMap<>();
      for (Acknowledged a : byTime) {
        if (a.atNanos() <= k.atNanos()) {
          last.put(a.channel(), a.node());
        } else {
          nextAfter.putIfAbsent(a.channel(), a.atNanos());
        }
      }
      last.forEach(
          (channel, node) -> {
            Long next = nextAfter.get(channel);
            if (node == k.node() && next != null) {
              waits.add(next - k.atNanos());
            }
          });
    }
    if (waits.isEmpty()) {
      return 0;
    }
    long[] nanos = waits.stream().mapToLong(Long::longValue).toArray();
    return BenchSupport.percentileMillis(nanos, 99) / 1000.0;
  }

  private void print(Figures f) {
    out.println("nodes=" + settings.nodes());
    out.println("clients=" + settings.clients());
    out.println("requests=" + settings.requests());
    out.println("kill_every_s=" + settings.killEvery().toSeconds());
    out.println("separate_hosts=" + settings.separateHosts());
    out.println("kills=" + f.kills());
    out.println("requests_ok=" + f.requestsOk());
    out.println("requests_failed_final=" + f.requestsFailedFinal());
    out.println("replies_missing=" + f.repliesMissing());
    out.println("replies_duplicated=" + f.repliesDuplicated());
    out.println("messages_lost=" + f.messagesLost());
    out.println("double_driven_turns=" + f.doubleDrivenTurns());
    out.println(String.format(Locale.ROOT, "failover_p99_s=%.1f", f.failoverP99Seconds()));
    out.println(String.format(Locale.ROOT, "elapsed_s=%.1f", f.elapsedSeconds()));
    out.println(
        String.format(
            Locale.ROOT,
            "requests_per_s=%.1f",
            f.requestsOk() / Math.max(f.elapsedSeconds(), 1e-9)));
    out.flush();
  }
}
