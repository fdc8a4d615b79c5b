package dev.legio.app.cli;

import dev.legio.app.bench.ChaosBenchmark;
import dev.legio.app.bench.ClaudeCliBenchmark;
import dev.legio.app.bench.DispatchBenchmark;
import dev.legio.app.bench.LogBenchmark;
import dev.legio.app.bench.TranscriptBenchmark;
import dev.legio.backend.claudecli.ClaudeCliBinary;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks that print key=value figures (see docs/BENCHMARKS.md).",
    subcommands = {
      BenchCommand.Log.class,
      BenchCommand.Dispatch.class,
      BenchCommand.Transcripts.class,
      BenchCommand.Api.class,
      BenchCommand.Chaos.class,
      BenchCommand.Cluster.class
    })
final class BenchCommand implements Runnable {
  @ParentCommand LegioCommand root;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(
      name = "log",
      mixinStandardHelpOptions = true,
      description = {
        "Build a log of N messages with a realistic audience mix in a fresh store, then measure"
            + " appends and visibility queries.",
        "The seed system's query (fetch limit*5 rows, filter in memory) is measured in the same"
            + " run as the baseline."
      })
  static final class Log implements Callable<Integer> {
    @ParentCommand BenchCommand bench;

    @Option(
        names = "--messages",
        defaultValue = "100000",
        paramLabel = "N",
        description = "Messages in the log (default: ${DEFAULT-VALUE}).")
    int messages;

    @Option(
        names = "--agents",
        defaultValue = "50",
        paramLabel = "A",
        description = "Agents besides caesar and the legatus (default: ${DEFAULT-VALUE}).")
    int agents;

    @Option(
        names = "--store",
        defaultValue = "sqlite",
        paramLabel = "STORE",
        description = "sqlite or postgres (default: ${DEFAULT-VALUE}).")
    String store;

    @Option(
        names = "--db-url",
        paramLabel = "URL",
        description =
            "PostgreSQL server for --store postgres (default: $LEGIO_DB_URL, else"
                + " jdbc:postgresql://127.0.0.1:5432/test?user=postgres). A throw-away schema is"
                + " created in it and dropped afterwards.")
    String dbUrl;

    @Option(
        names = "--queries",
        defaultValue = "5000",
        paramLabel = "Q",
        description = "Visibility queries to time (default: ${DEFAULT-VALUE}).")
    int queries;

    @Option(
        names = "--appends",
        defaultValue = "20000",
        paramLabel = "K",
        description = "Appends to time in each append phase (default: ${DEFAULT-VALUE}).")
    int appends;

    @Override
    public Integer call() throws Exception {
      String url = dbUrl != null ? dbUrl : bench.root.context.env().get("LEGIO_DB_URL");
      LogBenchmark.Settings settings =
          new LogBenchmark.Settings(messages, agents, store, url, queries, appends);
      new LogBenchmark(settings, bench.root.out, bench.root.err).run();
      return 0;
    }
  }

  @Command(
      name = "dispatch",
      mixinStandardHelpOptions = true,
      description = {
        "Measure the session engine's own time per dispatch (routing, logging, context building,"
            + " session bookkeeping; the back-end's time is subtracted) with the offline model on a"
            + " log of N messages, and the tokens its context rules save over a 100-turn"
            + " conversation against re-sending the whole history window every turn."
      })
  static final class Dispatch implements Callable<Integer> {
    @ParentCommand BenchCommand bench;

    @Option(
        names = "--messages",
        defaultValue = "1000000",
        paramLabel = "N",
        description = "Messages in the log (default: ${DEFAULT-VALUE}).")
    int messages;

    @Option(
        names = "--agents",
        defaultValue = "50",
        paramLabel = "A",
        description = "Agents besides the legatus (default: ${DEFAULT-VALUE}).")
    int agents;

    @Option(
        names = "--turns",
        defaultValue = "5000",
        paramLabel = "N",
        description = "Dispatches to time (default: ${DEFAULT-VALUE}).")
    int turns;

    @Option(
        names = "--backend",
        defaultValue = "offline",
        paramLabel = "KIND",
        description =
            "offline (the engine's own cost, default) or claude-cli: the time per turn of Legio"
                + " plus the Claude Code CLI, persistent and per-turn, against a loopback"
                + " Messages API (prints turn_overhead_ms_persistent and"
                + " turn_overhead_ms_per_turn).")
    String backend;

    @Option(
        names = "--cli-turns",
        defaultValue = "10",
        paramLabel = "N",
        description =
            "Turns to time per mode with --backend claude-cli (default: ${DEFAULT-VALUE}).")
    int cliTurns;

    @Override
    public Integer call() throws Exception {
      if (backend.equals("claude-cli")) {
        try {
          new ClaudeCliBenchmark(cliTurns, bench.root.context.env(), bench.root.out, bench.root.err)
              .run();
        } catch (ClaudeCliBinary.NotFoundException e) {
          throw new IllegalArgumentException(e.getMessage(), e);
        }
        return 0;
      }
      if (!backend.equals("offline")) {
        throw new IllegalArgumentException(
            "--backend must be offline or claude-cli, got '" + backend + "'");
      }
      new DispatchBenchmark(
              new DispatchBenchmark.Settings(messages, agents, turns),
              bench.root.out,
              bench.root.err)
          .run();
      return 0;
    }
  }

  @Command(
      name = "transcripts",
      mixinStandardHelpOptions = true,
      description = {
        "Write a transcript of --size-mb MB in 4 parts (1% tombstones), then measure appends, loads"
            + " (MB/s, peak heap) and, with python3 on the PATH, the same two-pass load in Python"
            + " as the baseline."
      })
  static final class Transcripts implements Callable<Integer> {
    @ParentCommand BenchCommand bench;

    @Option(
        names = "--size-mb",
        defaultValue = "200",
        paramLabel = "MB",
        description = "Size of the transcript, in MB (default: ${DEFAULT-VALUE}).")
    int sizeMb;

    @Override
    public Integer call() throws Exception {
      new TranscriptBenchmark(
              new TranscriptBenchmark.Settings(sizeMb), bench.root.out, bench.root.err)
          .run();
      return 0;
    }
  }

  @Command(
      name = "api",
      mixinStandardHelpOptions = true,
      description = {
        "Measure POST /api/v1/messages to one agent on the offline model, end to end over"
            + " loopback, from concurrent clients (each with its own agent): api_turn_p50_ms,"
            + " api_turn_p99_ms, and api_overhead_p99_ms (the turn minus the engine's own time,"
            + " which the server reports in Server-Timing), and failed_requests."
      })
  static final class Api implements Callable<Integer> {
    @ParentCommand BenchCommand bench;

    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--clients",
        defaultValue = "32",
        paramLabel = "N",
        description = "Concurrent clients (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(
        names = "--requests",
        defaultValue = "2000",
        paramLabel = "N",
        description = "Requests to time, over all clients (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(
        names = "--max-warm-up",
        defaultValue = "120",
        paramLabel = "SECONDS",
        description =
            "The clients warm up for at least 10 s, then until the JIT has settled (two seconds"
                + " in a row with at most 10 ms of compiling each), or for this long at most"
                + " (default: ${DEFAULT-VALUE}).")
    long maxWarmUpSeconds;

    @Option(
        names = "--engine-priority",
        defaultValue = "lowered",
        paramLabel = "LEVEL",
        description =
            "The server's [server] engine_priority: lowered (the default of legio serve) or"
                + " equal.")
    String enginePriority;

    @Option(
        names = "--wake-up-probe",
        description =
            "Also run a thread that only sleeps, 1 ms at a time, beside the load, and print how"
                + " late it woke while measuring (wake_up_lateness_p50_ms, wake_up_lateness_p99_ms):"
                + " the machine's own stalls, which every request meets too. Off by default: it"
                + " costs the server a wake-up a millisecond.")
    boolean wakeUpProbe;

    @Override
    public Integer call() throws Exception {
      dev.legio.config.EnginePriority priority =
          dev.legio.config.EnginePriority.of(enginePriority)
              .orElseThrow(
                  () ->
                      new picocli.CommandLine.ParameterException(
                          spec.commandLine(),
                          "--engine-priority must be lowered or equal, got '"
                              + enginePriority
                              + "'"));
      new dev.legio.app.bench.ApiBenchmark(
              new dev.legio.app.bench.ApiBenchmark.Settings(
                  clients,
                  requests,
                  java.time.Duration.ofSeconds(maxWarmUpSeconds),
                  priority,
                  wakeUpProbe),
              bench.root.out,
              bench.root.err)
          .run();
      return 0;
    }
  }

  @Command(
      name = "chaos",
      mixinStandardHelpOptions = true,
      description = {
        "Concurrent `legio say` processes on a fresh workspace against a slow loopback model that"
            + " sometimes echoes the API key, some killed mid-turn with SIGKILL, SIGTERM or SIGINT;"
            + " then one request per agent.",
        "Prints exits_failed_unclear, requests_unanswered_after_recovery, messages_lost,"
            + " double_driven_turns, max_locked_seconds and secret_leaks."
      })
  static final class Chaos implements Callable<Integer> {
    @ParentCommand BenchCommand bench;

    @Option(
        names = "--processes",
        defaultValue = "30",
        paramLabel = "N",
        description = "Processes per round (default: ${DEFAULT-VALUE}).")
    int processes;

    @Option(
        names = "--rounds",
        defaultValue = "10",
        paramLabel = "N",
        description = "Rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
        names = "--store",
        defaultValue = "sqlite",
        paramLabel = "STORE",
        description = "sqlite (default) or postgres.")
    String store;

    @Option(
        names = "--postgres-url",
        defaultValue = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres",
        paramLabel = "URL",
        description = "For --store postgres: the server (a fresh schema is made and dropped).")
    String postgresUrl;

    @Override
    public Integer call() throws Exception {
      if (!store.equals("sqlite") && !store.equals("postgres")) {
        throw new IllegalArgumentException(
            "--store must be sqlite or postgres, got '" + store + "'");
      }
      if (processes < 1 || rounds < 1) {
        throw new IllegalArgumentException("--processes and --rounds must be at least 1");
      }
      new ChaosBenchmark(
              new ChaosBenchmark.Settings(processes, rounds, store, postgresUrl),
              bench.root.out,
              bench.root.err)
          .run();
      return 0;
    }
  }

  @Command(
      name = "cluster",
      mixinStandardHelpOptions = true,
      description = {
        "Several `legio serve` nodes (child processes on loopback ports, the offline model) on one"
            + " PostgreSQL schema; clients post channel messages round-robin over the nodes and"
            + " retry on the next one when a node is down; one node is SIGKILLed and restarted"
            + " every --kill-every.",
        "Prints requests_ok, requests_failed_final, replies_missing, replies_duplicated,"
            + " messages_lost, double_driven_turns and failover_p99_s (see docs/BENCHMARKS.md)."
      })
  static final class Cluster implements Callable<Integer> {
    @ParentCommand BenchCommand bench;

    @Option(
        names = "--nodes",
        defaultValue = "3",
        paramLabel = "N",
        description = "Nodes (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(
        names = "--clients",
        defaultValue = "24",
        paramLabel = "N",
        description =
            "Concurrent clients, each on a channel of its own (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(
        names = "--requests",
        defaultValue = "3000",
        paramLabel = "N",
        description = "Requests in all (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(
        names = "--kill-every",
        defaultValue = "20s",
        paramLabel = "TIME",
        description =
            "How often a node is SIGKILLed and restarted: 20s, 500ms, 2m (default:"
                + " ${DEFAULT-VALUE}).")
    String killEvery;

    @Option(
        names = "--pause",
        defaultValue = "0ms",
        paramLabel = "TIME",
        description =
            "How long each client waits between its requests (default: ${DEFAULT-VALUE}).")
    String pause;

    @Option(
        names = "--separate-hosts",
        description =
            "Give each node a host name of its own for its leases (LEGIO_NODE_NAME), as on"
                + " separate machines: a killed node's sessions are then freed when their leases"
                + " run out ([sessions] lease_ttl_seconds), not at once by its pid.")
    boolean separateHosts;

    @Option(
        names = "--postgres-url",
        defaultValue = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres",
        paramLabel = "URL",
        description = "The PostgreSQL server (a fresh schema is made and dropped).")
    String postgresUrl;

    @Override
    public Integer call() throws Exception {
      new dev.legio.app.bench.ClusterBenchmark(
              new dev.legio.app.bench.ClusterBenchmark.Settings(
                  nodes,
                  clients,
                  requests,
                  duration("--kill-every", killEvery),
                  duration("--pause", pause),
                  separateHosts,
                  postgresUrl),
              bench.root.out,
              bench.root.err)
          .run();
      return 0;
    }

    /** {@code 20s}, {@code 500ms}, {@code 2m}, or plain seconds, for {@code option}. */
    static java.time.Duration duration(String option, String text) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("(\\d{1,9})(ms|s|m)?").matcher(text.strip());
      if (!m.matches()) {
        throw new IllegalArgumentException(
            option + " must be a time like 20s, 500ms or 2m, got '" + text + "'");
      }
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      return switch (unit) {
        case "ms" -> java.time.Duration.ofMillis(n);
        case "m" -> java.time.Duration.ofMinutes(n);
        default -> java.time.Duration.ofSeconds(n);
      };
    }
  }
}
