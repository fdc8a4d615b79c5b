package dev.legio.app.bench;

import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import dev.legio.log.jdbc.JdbcMessageLogs;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * {@code legio bench log}: builds a log with a realistic audience mix in a fresh store and prints
 * one {@code key=value} per line:
 *
 * <ul>
 *   <li>{@code append_per_s}: one writer, one message per call, each call returning once committed;
 *       {@code append_concurrent_per_s}: the same from 8 writers (group commit), and {@code
 *       group_commit_speedup}, their ratio.
 *   <li>{@code visible_p50_ms}, {@code visible_p99_ms}: {@code visibleTo(random agent, 50)}.
 *   <li>{@code short_results}: queries that returned fewer messages than the agent can see (or
 *       fewer than 50); must be 0.
 *   <li>{@code baseline_*}: the seed system's query measured on the same log (fetch the newest
 *       limit*5 messages, filter in memory), and {@code visible_p99_vs_baseline}.
 * </ul>
 *
 * Audience mix: half caesar↔legatus; most of the rest to one or two agents from caesar or the
 * legatus, 7% from an agent (to caesar or another agent: the agent sees it as its sender); 3% to
 * all.
 */
public final class LogBenchmark {
  private static final int LIMIT = 50;
  private static final int WRITERS = 8;
  private static final String DEFAULT_PG = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  /** What to run. */
  public record Settings(
      int messages, int agents, String store, String dbUrl, int queries, int appends) {
    public Settings {
      if (messages < 1 || agents < 1 || agents > 10_000 || queries < 1 || appends < WRITERS) {
        throw new IllegalArgumentException(
            "need --messages >= 1, --agents from 1 to 10000, --queries >= 1, --appends >= 8");
      }
      if (!store.equals("sqlite") && !store.equals("postgres")) {
        throw new IllegalArgumentException(
            "--store must be sqlite or postgres, got '" + store + "'");
      }
    }
  }

  private final Settings settings;
  private final PrintWriter out;
  private final PrintWriter err;
  private final String[] agents;
  private final long[] visibleCount;
  private long toAll;

  public LogBenchmark(Settings settings, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.out = out;
    this.err = err;
    this.agents = new String[settings.agents()];
    for (int i = 0; i < agents.length; i++) {
      agents[i] = "agent" + i;
    }
    this.visibleCount = new long[agents.length];
  }

  public void run() throws Exception {
    if (settings.store().equals("sqlite")) {
      Path dir = Files.createTempDirectory("legio-bench");
      try (MessageLog log =
          JdbcMessageLogs.openSqlite(
              new JdbcMessageLogs.SqliteOptions(
                  dir.resolve("praetorium.db"), 1 << 20, false, 4, Clock.systemUTC()))) {
        measure(log);
      } finally {
        BenchSupport.deleteTree(dir);
      }
    } else {
      String base = settings.dbUrl() == null ? DEFAULT_PG : settings.dbUrl();
      String schema = "legio_bench_" + UUID.randomUUID().toString().substring(0, 8);
      execute(base, "CREATE SCHEMA " + schema);
      String url = base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
      try (MessageLog log =
          JdbcMessageLogs.openPostgres(
              new JdbcMessageLogs.PostgresOptions(
                  url, null, null, 1 << 20, 10, Clock.systemUTC()))) {
        measure(log);
      } finally {
        execute(base, "DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  private void measure(MessageLog log) throws Exception {
    long started = System.nanoTime();
    build(log);
    double buildSeconds = (System.nanoTime() - started) / 1e9;

    double single = appendRate(log, 1, Math.max(1, settings.appends() / 4));
    double concurrent = appendRate(log, WRITERS, settings.appends());

    Random random = new Random(11);
    // Warm up both query paths (JIT, statement caches, page cache).
    runQueries(log, random, Math.min(1000, settings.queries()), false);
    runQueries(log, random, Math.min(1000, settings.queries()), true);
    Timings indexed = runQueries(log, random, settings.queries(), false);
    Timings baseline = runQueries(log, random, settings.queries(), true);

    print("store", settings.store());
    print("messages", settings.messages());
    print("agents", settings.agents());
    print("build_s", BenchSupport.fmt(buildSeconds));
    print("append_per_s", BenchSupport.fmt(single));
    print("append_concurrent_per_s", BenchSupport.fmt(concurrent));
    print("group_commit_speedup", BenchSupport.fmt(concurrent / single));
    print("visible_p50_ms", BenchSupport.fmt(indexed.percentile(50)));
    print("visible_p99_ms", BenchSupport.fmt(indexed.percentile(99)));
    print("short_results", indexed.shortResults);
    print("baseline_visible_p50_ms", BenchSupport.fmt(baseline.percentile(50)));
    print("baseline_visible_p99_ms", BenchSupport.fmt(baseline.percentile(99)));
    print("baseline_short_results", baseline.shortResults);
    print(
        "visible_p99_vs_baseline",
        BenchSupport.fmt(indexed.percentile(99) / baseline.percentile(99)));
    out.flush();
  }

  /** Fills the log in transactions of 5,000 messages, counting what each agent may see. */
  private void build(MessageLog log) {
    Random random = new Random(42);
    List<NewMessage> batch = new ArrayList<>(5000);
    int reported = 0;
    for (int i = 0; i < settings.messages(); i++) {
      batch.add(next(random, i));
      if (batch.size() == 5000 || i == settings.messages() - 1) {
        log.appendAll(batch);
        batch.clear();
        int percent = (int) ((i + 1L) * 100 / settings.messages());
        if (percent >= reported + 10) {
          err.printf("building the log: %d%%%n", percent);
          err.flush();
          reported = percent;
        }
      }
    }
  }

  private NewMessage next(Random random, int i) {
    int kind = random.nextInt(100);
    String text = "message " + i + " " + "lorem ipsum ".repeat(1 + random.nextInt(8));
    if (kind < 50) {
      return kind % 2 == 0
          ? NewMessage.of("caesar", Audience.of("legatus"), text)
          : NewMessage.of("legatus", Audience.of("caesar"), text);
    }
    if (kind < 97) {
      int a = random.nextInt(agents.length);
      visibleCount[a]++;
      int b = -1;
      if (kind % 3 == 0 && agents.length > 1) {
        b = (a + 1 + random.nextInt(agents.length - 1)) % agents.length;
        visibleCount[b]++;
      }
      if (kind >= 90) {
        // An agent's own message, to another agent or (a reply) to caesar: it sees it as sender.
        return NewMessage.of(
            agents[a], b < 0 ? Audience.of("caesar") : Audience.of(agents[b]), text);
      }
      String sender = kind < 80 ? "caesar" : "legatus";
      return b < 0
          ? NewMessage.of(sender, Audience.of(agents[a]), text)
          : NewMessage.of(sender, Audience.of(agents[a], agents[b]), text);
    }
    toAll++;
    return NewMessage.of("legatus", Audience.ALL, text);
  }

  /** Appends per second from {@code writers} threads, each call waiting for its commit. */
  private static double appendRate(MessageLog log, int writers, int total) throws Exception {
    int each = total / writers;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      start.await();
                    } catch (InterruptedException e) {
                      return;
                    }
                    for (int i = 0; i < each; i++) {
                      log.append(NewMessage.of("caesar", Audience.of("legatus"), "bench " + i));
                    }
                  }));
    }
    long t0 = System.nanoTime();
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    return each * writers / ((System.nanoTime() - t0) / 1e9);
  }

  private record Timings(long[] nanos, long shortResults) {
    double percentile(int p) {
      return BenchSupport.percentileMillis(nanos, p);
    }
  }

  private Timings runQueries(MessageLog log, Random random, int count, boolean overFetch) {
    long[] nanos = new long[count];
    long shortResults = 0;
    for (int q = 0; q < count; q++) {
      int a = random.nextInt(agents.length);
      long t0 = System.nanoTime();
      List<Message> result =
          overFetch ? overFetch(log, agents[a]) : log.visibleTo(agents[a], LIMIT);
      nanos[q] = System.nanoTime() - t0;
      if (result.size() < Math.min(LIMIT, visibleCount[a] + toAll)) {
        shortResults++;
      }
    }
    return new Timings(nanos, shortResults);
  }

  /** The seed system's query: the newest limit*5 messages of the log, filtered in memory. */
  private static List<Message> overFetch(MessageLog log, String agent) {
    List<Message> visible =
        log.history(LIMIT * 5).stream().filter(m -> m.isVisibleTo(agent)).toList();
    return visible.subList(Math.max(0, visible.size() - LIMIT), visible.size());
  }

  private void print(String key, Object value) {
    out.println(key + "=" + value);
  }

  private static void execute(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
