package dev.legio.app.bench;

import dev.legio.agents.AgentDirectory;
import dev.legio.backend.BackendEvent;
import dev.legio.backend.BackendSession;
import dev.legio.backend.ForwardingModelBackend;
import dev.legio.backend.ModelBackend;
import dev.legio.backend.SessionSpec;
import dev.legio.backend.TokenEstimator;
import dev.legio.backend.TurnResult;
import dev.legio.backend.TurnStart;
import dev.legio.backend.offline.OfflineBackend;
import dev.legio.config.SessionSettings;
import dev.legio.log.Audience;
import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.NewMessage;
import dev.legio.log.PraetoriumXml;
import dev.legio.log.jdbc.JdbcMessageLogs;
import dev.legio.pricing.Tokens;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.session.SessionEngine;
import dev.legio.store.LegioStore;
import dev.legio.transcript.FileTranscriptStore;
import dev.legio.transcript.TranscriptRecorder;
import dev.legio.workspace.Workspace;
import dev.legio.workspace.WorkspaceInitializer;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * {@code legio bench dispatch}: the session engine's own cost per turn, and the tokens its context
 * rules save. Prints one {@code key=value} per line:
 *
 * <ul>
 *   <li>{@code dispatch_overhead_p50_ms}, {@code dispatch_overhead_p99_ms}: the time of a whole
 *       dispatch ({@code SessionEngine.handle}: routing, logging the request and the reply, context
 *       building, session bookkeeping in the store, the turn's transcript entries) minus the time
 *       spent inside the back-end, over {@code --turns} dispatches to random agents on a log of
 *       {@code --messages} messages.
 *   <li>{@code dispatch_cpu_p50_ms}, {@code dispatch_cpu_p99_ms}: the same turns' CPU time on the
 *       calling thread, minus the back-end's: Legio's work without the time it waited for a CPU.
 *   <li>{@code tokens_injected}, {@code tokens_baseline}, {@code tokens_saved_ratio}: over a
 *       100-turn conversation with one agent while others keep writing to it, the tokens of context
 *       Legio sent versus a baseline that re-sends the whole history window every turn (what the
 *       seed system did); ratio = 1 - injected / baseline.
 *   <li>{@code legatus_digest_tokens}, {@code tokens_saved_ratio_with_digest}: in that conversation
 *       the legatus has a turn after each of the agent's; the tokens of the digests it carried (its
 *       first turn, a bootstrap, not counted), and the ratio with them added to what Legio sent.
 * </ul>
 */
public final class DispatchBenchmark {
  private static final int CONVERSATION_TURNS = 100;

  /** What to run. */
  public record Settings(int messages, int agents, int turns) {
    public Settings {
      if (messages < 0 || agents < 1 || agents > 1000 || turns < 1) {
        throw new IllegalArgumentException(
            "need --messages >= 0, --agents from 1 to 1000, --turns >= 1");
      }
    }
  }

  private final Settings settings;
  private final PrintWriter out;
  private final PrintWriter err;

  public DispatchBenchmark(Settings settings, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.out = out;
    this.err = err;
  }

  public void run() throws Exception {
    Path dir = Files.createTempDirectory("legio-bench-dispatch");
    try {
      Workspace workspace = new Workspace(dir);
      WorkspaceInitializer.initialise(workspace);
      String[] agents = new String[settings.agents()];
      for (int i = 0; i < agents.length; i++) {
        agents[i] = "agent" + i;
        Path prompt = workspace.castra().resolve("centuriones/" + agents[i] + "/prompt.md");
        Files.createDirectories(prompt.getParent());
        Files.writeString(
            prompt, "---\ndescription: Benchmark agent " + i + "\n---\nYou are agent " + i + ".\n");
      }
      try (LegioStore store =
          LegioStore.openSqlite(
              new JdbcMessageLogs.SqliteOptions(
                  workspace.castra().resolve("praetorium.db"),
                  1 << 20,
                  false,
                  4,
                  Clock.systemUTC()))) {
        fill(store.messageLog(), agents);
        measure(store, workspace, agents);
      }
    } finally {
      BenchSupport.deleteTree(dir);
    }
  }

  private void measure(LegioStore store, Workspace workspace, String[] agents) {
    TimedBackend backend = new TimedBackend(new OfflineBackend());
    SessionSettings sessionSettings = SessionSettings.defaults();
    // As LegioApp wires it: every turn is also written to its session's transcript; the recorder
    // closes after the engine.
    try (TranscriptRecorder recorder =
            new TranscriptRecorder(
                new FileTranscriptStore(
                    workspace.castra().resolve("transcripts"),
                    workspace.root(),
                    Clock.systemUTC()));
        SessionEngine engine =
            SessionEngine.builder()
                .messageLog(store.messageLog())
                .store(store.sessions())
                .agents(new AgentDirectory(workspace.castra()))
                .backend(backend)
                .settings(sessionSettings)
                .clock(Clock.systemUTC())
                .turnListener(recorder)
                .build()) {
      Random random = new Random(5);
      // Warm-up: every agent's first (bootstrap) dispatch, and the JIT.
      for (String agent : agents) {
        dispatch(engine, backend, "@" + agent + " warm up");
      }
      for (int i = 0; i < Math.min(1000, settings.turns()); i++) {
        dispatch(engine, backend, "@" + agents[random.nextInt(agents.length)] + " warm " + i);
      }
      long[] overhead = new long[settings.turns()];
      long[] cpu = new long[settings.turns()];
      for (int i = 0; i < settings.turns(); i++) {
        long[] both =
            dispatch(engine, backend, "@" + agents[random.nextInt(agents.length)] + " turn " + i);
        overhead[i] = both[0];
        cpu[i] = both[1];
      }
      long[] legatus = new long[Math.min(200, settings.turns())];
      for (int i = 0; i < legatus.length; i++) {
        legatus[i] = dispatch(engine, backend, "status report " + i)[0];
      }
      Tokens tokens = conversation(engine, backend, store.messageLog(), agents[0], sessionSettings);

      print("messages", store.messageLog().size());
      print("agents", agents.length);
      print("turns", settings.turns());
      print(
          "dispatch_overhead_p50_ms",
          BenchSupport.fmt(BenchSupport.percentileMillis(overhead, 50)));
      print(
          "dispatch_overhead_p99_ms",
          BenchSupport.fmt(BenchSupport.percentileMillis(overhead, 99)));
      print("dispatch_cpu_p50_ms", BenchSupport.fmt(BenchSupport.percentileMillis(cpu, 50)));
      print("dispatch_cpu_p99_ms", BenchSupport.fmt(BenchSupport.percentileMillis(cpu, 99)));
      print(
          "legatus_overhead_p50_ms", BenchSupport.fmt(BenchSupport.percentileMillis(legatus, 50)));
      print(
          "legatus_overhead_p99_ms", BenchSupport.fmt(BenchSupport.percentileMillis(legatus, 99)));
      print("tokens_injected", tokens.injected);
      print("tokens_baseline", tokens.baseline);
      print("tokens_saved_ratio", BenchSupport.fmt(1 - (double) tokens.injected / tokens.baseline));
      print("legatus_digest_tokens", tokens.legatusDigest);
      print(
          "tokens_saved_ratio_with_digest",
          BenchSupport.fmt(
              1 - (double) (tokens.injected + tokens.legatusDigest) / tokens.baseline));
      out.flush();
    }
  }

  /**
   * Runs one dispatch; returns Legio's own time for it in nanoseconds: elapsed, and the CPU time of
   * the calling thread (a message to one agent runs wholly on the caller's thread, so that is the
   * work Legio did, whatever else the machine was running).
   */
  private static long[] dispatch(SessionEngine engine, TimedBackend backend, String text) {
    long inBackendBefore = backend.nanos;
    long cpuInBackendBefore = backend.cpuNanos;
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    Outcome outcome = engine.handle(text, DispatchListener.NONE);
    long total = System.nanoTime() - t0;
    long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
    if (!outcome.ok()) {
      throw new IllegalStateException("dispatch failed: " + outcome);
    }
    return new long[] {
      total - (backend.nanos - inBackendBefore), cpu - (backend.cpuNanos - cpuInBackendBefore)
    };
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private record Tokens(long injected, long baseline, long legatusDigest) {}

  /**
   * A 100-turn conversation with one agent; before each turn two other messages reach it. Legio's
   * context is what it sent minus the request itself; the baseline re-sends the newest history
   * window visible to the agent on every turn. After each of the agent's turns the legatus has a
   * turn too: its digest (what caesar and the agent said, the notes) is counted apart.
   */
  private static Tokens conversation(
      SessionEngine engine,
      TimedBackend backend,
      MessageLog log,
      String agent,
      SessionSettings settings) {
    engine.reset(agent);
    long injected = 0;
    long baseline = 0;
    long legatusDigest = 0;
    for (int turn = 0; turn < CONVERSATION_TURNS; turn++) {
      log.append(NewMessage.of("legatus", Audience.of(agent), "note " + turn + " for " + agent));
      log.append(NewMessage.of("caesar", Audience.ALL, "announcement " + turn));
      String request = "@" + agent + " conversation turn " + turn;
      backend.lastMessage = null;
      Outcome outcome = engine.handle(request, DispatchListener.NONE);
      Message logged = outcome.request();
      injected += TokenEstimator.of(backend.lastMessage) - TokenEstimator.of(request);
      List<Message> window = log.visibleTo(agent, 0, logged.sequence(), settings.historyWindow());
      baseline += TokenEstimator.of(PraetoriumXml.format(window, agent));
      backend.lastMessage = null;
      String status = "status after turn " + turn;
      engine.handle(status, DispatchListener.NONE);
      String sent = backend.lastMessage;
      int digest = sent.indexOf("<praetorium recent=");
      if (turn > 0 && digest >= 0) {
        legatusDigest += TokenEstimator.of(sent.substring(digest, sent.length() - status.length()));
      }
    }
    return new Tokens(injected, baseline, legatusDigest);
  }

  /** Wraps a back-end and adds up the time spent inside it. */
  private static final class TimedBackend extends ForwardingModelBackend {
    volatile long nanos;
    volatile long cpuNanos;
    volatile String lastMessage;

    TimedBackend(ModelBackend inner) {
      super(inner);
    }

    @Override
    public BackendSession open(SessionSpec spec) {
      long t0 = System.nanoTime();
      BackendSession session = super.open(spec);
      nanos += System.nanoTime() - t0;
      return session;
    }

    @Override
    protected TurnResult send(
        BackendSession session,
        String userMessage,
        Consumer<BackendEvent> events,
        TurnStart start) {
      lastMessage = userMessage;
      long cpu0 = THREADS.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      try {
        return session.send(userMessage, events, start);
      } finally {
        nanos += System.nanoTime() - t0;
        cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu0;
      }
    }
  }

  /** Fills the log in transactions of 5,000 messages: a realistic audience mix. */
  private void fill(MessageLog log, String[] agents) {
    Random random = new Random(42);
    List<NewMessage> batch = new ArrayList<>(5000);
    int reported = 0;
    for (int i = 0; i < settings.messages(); i++) {
      int kind = random.nextInt(100);
      String text = "message " + i + " " + "lorem ipsum ".repeat(1 + random.nextInt(8));
      String a = agents[random.nextInt(agents.length)];
      batch.add(
          kind < 50
              ? NewMessage.of("caesar", Audience.of("legatus"), text)
              : kind < 97
                  ? NewMessage.of(kind < 80 ? "caesar" : "legatus", Audience.of(a), text)
                  : NewMessage.of("legatus", Audience.ALL, text));
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

  private void print(String key, Object value) {
    out.println(key + "=" + value);
  }
}
