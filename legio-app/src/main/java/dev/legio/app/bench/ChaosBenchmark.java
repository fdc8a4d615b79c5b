package dev.legio.app.bench;

import dev.legio.app.LegioApp;
import dev.legio.app.LegioCommandLine;
import dev.legio.config.ConfigLoader;
import dev.legio.config.LegioConfig;
import dev.legio.log.Message;
import dev.legio.session.SessionStore;
import dev.legio.store.LegioStore;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * {@code legio bench chaos}: concurrent {@code legio say} processes on a fresh workspace against a
 * slow loopback model that now and then echoes the API key in a 401, some of them killed mid-turn
 * with SIGKILL, SIGTERM or SIGINT, round after round; then one request per agent to see that every
 * agent recovered. It prints:
 *
 * <ul>
 *   <li>{@code exits_failed_unclear}: processes not killed that failed without a one-line {@code
 *       legio:} message, or that printed a stack trace;
 *   <li>{@code requests_unanswered_after_recovery}: the final requests (one per agent) not
 *       answered;
 *   <li>{@code messages_lost}: requests of processes that exited 0 missing from the log, or missing
 *       their reply;
 *   <li>{@code double_driven_turns}: requests answered more than once;
 *   <li>{@code max_locked_seconds}: after a round's processes have all ended, the longest an agent
 *       stayed leased (so a new request would wait);
 *   <li>{@code secret_leaks}: occurrences of the API key on any process's output or in the log
 *       file.
 * </ul>
 */
public final class ChaosBenchmark {
  private static final List<String> AGENTS = List.of("legatus", "vorenus", "pullo");
  private static final String KEY = "chaos-key-" + UUID.randomUUID().toString().replace("-", "");
  private static final Duration LOCK_PROBE_LIMIT = Duration.ofSeconds(60);

  /** What to run. */
  public record Settings(int processes, int rounds, String store, String postgresUrl) {}

  private record Run(Process process, String text, String signal, Path out, Path err) {}

  private final Settings settings;
  private final PrintWriter out;
  private final PrintWriter err;
  private final Random random = new Random(21);

  public ChaosBenchmark(Settings settings, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.out = out;
    this.err = err;
  }

  public void run() throws Exception {
    Path dir = Files.createTempDirectory("legio-chaos-");
    err.println("workspace and each process's output: " + dir);
    String schema = null;
    try (BenchMessagesApi model = new BenchMessagesApi(Duration.ofSeconds(3), 7)) {
      Path ws = dir.resolve("legion");
      WorkspaceInitializer.initialise(new Workspace(ws));
      Path toml = ws.resolve("legio.toml");
      String config =
          Files.readString(toml)
              .replace("kind = \"auto\"", "kind = \"anthropic\"")
              .replace("base_url = \"\"", "base_url = \"" + model.baseUrl() + "\"")
              .replace("max_retries = 3", "max_retries = 0")
              .replace("lock_wait_seconds = 30", "lock_wait_seconds = 10");
      Files.writeString(toml, config);
      Map<String, String> env = new HashMap<>(System.getenv());
      env.put("ANTHROPIC_API_KEY", KEY);
      env.remove("LEGIO_DB_URL");
      if (settings.store().equals("postgres")) {
        schema = "legio_chaos_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        try (Connection c = DriverManager.getConnection(settings.postgresUrl());
            Statement s = c.createStatement()) {
          s.execute("CREATE SCHEMA " + schema);
        }
        String url = settings.postgresUrl();
        env.put("LEGIO_DB_URL", url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema);
      }

      int unclear = 0;
      double maxLocked = 0;
      List<Run> finished = new ArrayList<>();
      for (int round = 0; round < settings.rounds(); round++) {
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < settings.processes(); i++) {
          String agent = AGENTS.get(i % AGENTS.size());
          String text = "@" + agent + " chaos " + round + "-" + i;
          String signal =
              switch (i % 6) {
                case 1 -> "KILL";
                case 3 -> "TERM";
                case 5 -> "INT";
                default -> null;
              };
          runs.add(start(dir, ws, env, text, signal));
        }
        // Kills land 1.5 to 4.5 s after the start: during start-up, waiting, or mid-turn.
        long started = System.nanoTime();
        for (Run r : runs) {
          if (r.signal() == null) {
            continue;
          }
          long at = started + TimeUnit.MILLISECONDS.toNanos(1_500 + random.nextInt(3_000));
          long wait = at - System.nanoTime();
          if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
          }
          new ProcessBuilder("kill", "-" + r.signal(), Long.toString(r.process().pid()))
              .start()
              .waitFor();
        }
        for (Run r : runs) {
          if (!r.process().waitFor(5, TimeUnit.MINUTES)) {
            r.process().destroyForcibly();
          }
          if (unclear(r)) {
            unclear++;
          }
        }
        finished.addAll(runs);
        double locked = lockedSeconds(ws, env);
        maxLocked = Math.max(maxLocked, locked);
        err.println(
            "round "
                + (round + 1)
                + "/"
                + settings.rounds()
                + " done in "
                + (System.nanoTime() - started) / 1_000_000_000
                + " s; agents locked afterwards for "
                + String.format(java.util.Locale.ROOT, "%.1f", locked)
                + " s");
        err.flush();
      }

      // Recovery: every agent must answer again (the model answers every request now).
      model.stopEchoingKey();
      int unanswered = 0;
      for (String agent : AGENTS) {
        Run r = start(dir, ws, env, "@" + agent + " recovery check", null);
        r.process().waitFor(5, TimeUnit.MINUTES);
        finished.add(r);
        if (r.process().exitValue() != 0) {
          unanswered++;
        }
      }

      int[] lostAndDouble = lostAndDoubleDriven(ws, env, finished);
      int leaks = 0;
      for (Run r : finished) {
        leaks += count(Files.readString(r.out()) + Files.readString(r.err()), KEY);
      }
      try (var logs = Files.list(ws.resolve("castra/logs"))) {
        for (Path f : logs.toList()) {
          if (f.toString().endsWith(".log")) {
            leaks += count(Files.readString(f), KEY);
          }
        }
      }
      out.println("store=" + settings.store());
      out.println("processes=" + settings.processes());
      out.println("rounds=" + settings.rounds());
      out.println("exits_failed_unclear=" + unclear);
      out.println("requests_unanswered_after_recovery=" + unanswered);
      out.println("messages_lost=" + lostAndDouble[0]);
      out.println("double_driven_turns=" + lostAndDouble[1]);
      out.println(String.format(java.util.Locale.ROOT, "max_locked_seconds=%.1f", maxLocked));
      out.println("secret_leaks=" + leaks);
      out.flush();
    } finally {
      if (schema != null) {
        try (Connection c = DriverManager.getConnection(settings.postgresUrl());
            Statement s = c.createStatement()) {
          s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException e) {
          err.println("could not drop the schema " + schema + ": " + e.getMessage());
        }
      }
    }
  }

  private static Run start(Path dir, Path ws, Map<String, String> env, String text, String signal)
      throws IOException {
    Path o = Files.createTempFile(dir, "say-", ".out");
    Path e = Files.createTempFile(dir, "say-", ".err");
    List<String> command = new ArrayList<>(LegioCommandLine.ofThisProcess());
    command.addAll(List.of("--castra", ws.toString(), "say", "-q", text));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(o.toFile()).redirectError(e.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    return new Run(builder.start(), text, signal, o, e);
  }

  /** A process not killed that failed without a clear message, or any that printed a trace. */
  private static boolean unclear(Run r) throws IOException {
    String stderr = Files.readString(r.err(), StandardCharsets.UTF_8);
    boolean trace = stderr.contains("\tat ") || stderr.contains("Caused by");
    if (trace) {
      return true;
    }
    int code = r.process().exitValue();
    if (r.signal() != null || code == 0) {
      return false;
    }
    String all = stderr + Files.readString(r.out(), StandardCharsets.UTF_8);
    return !(all.contains("legio:") || all.contains("An error occurred") || all.contains("Busy"));
  }

  /** After every process of a round has ended: the longest an agent stays leased. */
  private double lockedSeconds(Path ws, Map<String, String> env) {
    LegioConfig config = ConfigLoader.load(ws.resolve("legio.toml"), env);
    double longest = 0;
    try (LegioStore store =
        dev.legio.app.StoreOpener.open(
            config.praetorium(), Clock.systemUTC(), LegioApp.Lifetime.LONG_RUNNING)) {
      SessionStore sessions = store.sessions();
      long t0 = System.nanoTime();
      for (String agent : AGENTS) {
        String probe = "chaos-probe-" + UUID.randomUUID();
        while (!sessions.tryLease(agent, probe, Instant.now(), Duration.ofSeconds(5))) {
          if (System.nanoTime() - t0 > LOCK_PROBE_LIMIT.toNanos()) {
            break;
          }
          try {
            Thread.sleep(100);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return longest;
          }
        }
        sessions.releaseLease(agent, probe);
        longest = Math.max(longest, (System.nanoTime() - t0) / 1e9);
      }
    }
    return longest;
  }

  /** {messages_lost, double_driven_turns} over the whole log. */
  private static int[] lostAndDoubleDriven(Path ws, Map<String, String> env, List<Run> runs)
      throws IOException {
    LegioConfig config = ConfigLoader.load(ws.resolve("legio.toml"), env);
    try (LegioStore store =
        dev.legio.app.StoreOpener.open(
            config.praetorium(), Clock.systemUTC(), LegioApp.Lifetime.LONG_RUNNING)) {
      List<Message> all = store.messageLog().history(100_000);
      Map<String, Message> requestByText = new HashMap<>();
      Map<UUID, Integer> replies = new HashMap<>();
      for (Message m : all) {
        if (m.sender().equals("caesar")) {
          requestByText.put(m.text(), m);
        }
        if (m.replyTo() != null) {
          replies.merge(m.replyTo(), 1, Integer::sum);
        }
      }
      int lost = 0;
      for (Run r : runs) {
        if (r.process().exitValue() != 0) {
          continue;
        }
        Message request = requestByText.get(r.text());
        if (request == null || !replies.containsKey(request.id())) {
          lost++;
        }
      }
      int doubled = (int) replies.values().stream().filter(n -> n > 1).count();
      return new int[] {lost, doubled};
    }
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
      n++;
    }
    return n;
  }
}
