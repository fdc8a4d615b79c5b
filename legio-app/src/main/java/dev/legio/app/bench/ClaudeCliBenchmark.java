package dev.legio.app.bench;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.claudecli.ClaudeCliBackend;
import dev.legio.backend.claudecli.ClaudeCliBinary;
import dev.legio.backend.claudecli.McpConfigSource;
import dev.legio.config.SessionSettings;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.session.SessionEngine;
import dev.legio.store.LegioStore;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code legio bench dispatch --backend claude-cli}: what a turn costs in Legio plus the Claude
 * Code CLI, in each mode, against a loopback Messages API that answers at once. Prints {@code
 * turn_overhead_ms_persistent} and {@code turn_overhead_ms_per_turn}: the median time of {@code
 * SessionEngine.handle} for one agent, minus the time the API spent answering, over {@code turns}
 * turns after one warm-up turn (which starts the session).
 */
public final class ClaudeCliBenchmark {
  private final int turns;
  private final Map<String, String> env;
  private final PrintWriter out;
  private final PrintWriter err;

  public ClaudeCliBenchmark(int turns, Map<String, String> env, PrintWriter out, PrintWriter err) {
    if (turns < 1) {
      throw new IllegalArgumentException("need --turns >= 1");
    }
    this.turns = turns;
    this.env = env;
    this.out = out;
    this.err = err;
  }

  public void run() throws Exception {
    Path executable = ClaudeCliBinary.locate("claude", env);
    Path dir = Files.createTempDirectory("legio-bench-claude-cli");
    try (BenchMessagesApi api = new BenchMessagesApi()) {
      out.println("claude_cli=" + executable);
      out.println("turns=" + turns);
      for (ClaudeCliBackend.Mode mode : ClaudeCliBackend.Mode.values()) {
        long[] overhead = measure(executable, api, dir.resolve(mode.name().toLowerCase()), mode);
        String key =
            mode == ClaudeCliBackend.Mode.PERSISTENT
                ? "turn_overhead_ms_persistent"
                : "turn_overhead_ms_per_turn";
        out.println(key + "=" + BenchSupport.fmt(BenchSupport.percentileMillis(overhead, 50)));
        out.println(
            key.replace("turn_overhead_ms", "turn_overhead_p90_ms")
                + "="
                + BenchSupport.fmt(BenchSupport.percentileMillis(overhead, 90)));
        out.flush();
      }
    } finally {
      BenchSupport.deleteTree(dir);
    }
  }

  private long[] measure(
      Path executable, BenchMessagesApi api, Path dir, ClaudeCliBackend.Mode mode)
      throws Exception {
    Workspace workspace = new Workspace(dir.resolve("castra-root"));
    WorkspaceInitializer.initialise(workspace);
    Path home = Files.createDirectories(dir.resolve("home"));
    Map<String, String> cliEnv =
        Map.of(
            "HOME", home.toString(),
            "CLAUDE_CONFIG_DIR", home.resolve(".claude").toString(),
            "ANTHROPIC_BASE_URL", api.baseUrl().toString(),
            "ANTHROPIC_API_KEY", "sk-ant-bench-dummy",
            "DISABLE_TELEMETRY", "1",
            "DISABLE_AUTOUPDATER", "1",
            "DISABLE_ERROR_REPORTING", "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    ClaudeCliBackend backend =
        new ClaudeCliBackend(
            new ClaudeCliBackend.Options(
                executable,
                mode,
                "default",
                List.of(),
                Duration.ofSeconds(120),
                workspace.root(),
                cliEnv,
                McpConfigSource.none()));
    try (LegioStore store =
            LegioStore.openSqlite(
                new JdbcMessageLogs.SqliteOptions(
                    workspace.castra().resolve("praetorium.db"),
                    1 << 20,
                    false,
                    4,
                    Clock.systemUTC()));
        backend;
        SessionEngine engine =
            SessionEngine.builder()
                .messageLog(store.messageLog())
                .store(store.sessions())
                .agents(new AgentDirectory(workspace.castra()))
                .backend(backend)
                .settings(SessionSettings.defaults())
                .clock(Clock.systemUTC())
                .build()) {
      turn(engine, api, "@vorenus warm up");
      long[] overhead = new long[turns];
      for (int i = 0; i < turns; i++) {
        overhead[i] = turn(engine, api, "@vorenus turn " + i);
        err.printf("%s: turn %d of %d%n", mode, i + 1, turns);
        err.flush();
      }
      return overhead;
    }
  }

  /** One turn; returns its time minus the API's time, in nanoseconds. */
  private static long turn(SessionEngine engine, BenchMessagesApi api, String text) {
    long apiBefore = api.busyNanos();
    long t0 = System.nanoTime();
    Outcome outcome = engine.handle(text, DispatchListener.NONE);
    long total = System.nanoTime() - t0;
    if (!outcome.ok()) {
      throw new IllegalStateException("turn failed: " + outcome.replies());
    }
    return total - (api.busyNanos() - apiBefore);
  }
}
