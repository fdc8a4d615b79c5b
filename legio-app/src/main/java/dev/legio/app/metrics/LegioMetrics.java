package dev.legio.app.metrics;

import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import dev.legio.log.MessageLog;
import dev.legio.pricing.Tokens;
import dev.legio.session.CompletedTurn;
import dev.legio.session.EndedTurn;
import dev.legio.session.RebuildReason;
import dev.legio.session.SessionEngine;
import dev.legio.session.SessionStore;
import dev.legio.session.TurnEnding;
import dev.legio.session.TurnMeter;
import dev.legio.store.LegioStore;
import dev.legio.usage.LedgerEntry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * This process's metrics, in Micrometer's Prometheus registry, for {@code GET /metrics}: the
 * engine's turns, tokens, cost, rebuilds and open sessions, the store's appends and lease
 * takeovers, the connection pool, and the JVM. The engine knows nothing of Micrometer: it tells a
 * {@link TurnMeter} (this) how each turn ended and keeps plain counters that are read here.
 *
 * <p>The metrics (the names Prometheus sees; counters since the process started):
 *
 * <ul>
 *   <li>{@code legio_turns_total{agent,outcome}}: turns run for logged requests; {@code outcome} is
 *       {@code completed}, {@code failed}, {@code busy} or {@code interrupted} ({@link
 *       TurnEnding}).
 *   <li>{@code legio_turn_duration_seconds{agent,outcome}}: a histogram of the turns that ran
 *       ({@code completed} or {@code failed}; busy answers and interruptions are not timed), from
 *       the turn's start to its logged reply; buckets {@link #TURN_BUCKETS}.
 *   <li>{@code legio_tokens_total{direction}}: tokens of completed turns as the usage ledger bills
 *       them, {@code direction} {@code input} (uncached), {@code output}, {@code cache_read},
 *       {@code cache_write}.
 *   <li>{@code legio_cost_usd_total}: their cost in USD as the ledger counts it; a turn whose cost
 *       is unknown adds nothing.
 *   <li>{@code legio_session_rebuilds_total{reason}}: rebuilds per {@link RebuildReason} ({@code
 *       reset}, {@code idle}, {@code prompt_changed}, ...), every reason present from the start.
 *   <li>{@code legio_lease_takeovers_total}: session leases this process took over from another
 *       holder, gone or run out ({@link SessionStore#leaseTakeovers}).
 *   <li>{@code legio_messages_appended_total}: messages this process appended to the log.
 *   <li>{@code legio_active_sessions}: sessions open in this process now ({@link
 *       SessionEngine#openSessions}).
 *   <li>{@code hikaricp_connections_*{pool}}: the connection pool (HikariCP's own Micrometer
 *       tracker); {@code jvm_memory_*}, {@code jvm_gc_*}, {@code jvm_threads_*}, {@code
 *       jvm_classes_*}, {@code process_*}, {@code system_cpu_*}: the JVM's.
 * </ul>
 *
 * <p>Label cardinality is bounded: {@code agent} is the legatus's or a centurio's name (the agents
 * of the castra, a handful), and for a channel its source with a star ({@code telegram:*}), never
 * the chat id, so a thousand chats add one series, not a thousand. {@code outcome}, {@code
 * direction} and {@code reason} are closed sets.
 */
public final class LegioMetrics implements TurnMeter, AutoCloseable {
  /** The upper bounds of the turn duration histogram's buckets: a turn takes seconds to minutes. */
  public static final Duration[] TURN_BUCKETS = {
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofMillis(2_500),
    Duration.ofSeconds(5),
    Duration.ofSeconds(10),
    Duration.ofSeconds(30),
    Duration.ofSeconds(60),
    Duration.ofSeconds(120),
    Duration.ofSeconds(300),
    Duration.ofSeconds(600)
  };

  /** The content type of {@link #scrape}: Prometheus's text exposition format 0.0.4. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final SessionEngine engine;
  private volatile dev.legio.task.TaskSessions tasks;
  private final Function<CompletedTurn, LedgerEntry> costing;
  private final Counter inputTokens;
  private final Counter outputTokens;
  private final Counter cacheReadTokens;
  private final Counter cacheWriteTokens;
  private final Counter cost;

  private LegioMetrics(SessionEngine engine, Function<CompletedTurn, LedgerEntry> costing) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.costing = Objects.requireNonNull(costing, "costing");
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    inputTokens = tokens("input");
    outputTokens = tokens("output");
    cacheReadTokens = tokens("cache_read");
    cacheWriteTokens = tokens("cache_write");
    cost =
        Counter.builder("legio.cost.usd")
            .description("Cost in USD of the completed turns, as the usage ledger counts it")
            .register(registry);
  }

  /**
   * Metrics of {@code engine} (registered as its {@link TurnMeter} until {@link #close}), of its
   * session store's lease takeovers and of its log's appends; {@code costing} prices a completed
   * turn the way the usage ledger does ({@code UsageRecorder::entryOf}), so {@code /metrics} and
   * {@code /api/v1/usage} agree.
   */
  public static LegioMetrics watching(
      SessionEngine engine,
      SessionStore sessions,
      MessageLog messageLog,
      Function<CompletedTurn, LedgerEntry> costing) {
    LegioMetrics metrics = new LegioMetrics(engine, costing);
    metrics.bindEngine(sessions, messageLog);
    engine.setTurnMeter(metrics);
    return metrics;
  }

  /**
   * Also counts the turns of {@code tasks}' task sessions in {@code legio_turns_total}, {@code
   * legio_turn_duration_seconds}, {@code legio_tokens_total} and {@code legio_cost_usd_total},
   * under their agent's name, as the engine's turns are.
   */
  public LegioMetrics measuringTasks(dev.legio.task.TaskSessions tasks) {
    tasks.setTurnMeter(this);
    this.tasks = tasks;
    return this;
  }

  /** Also reports {@code store}'s connection pool ({@code hikaricp_*{pool}}). Once per store. */
  public LegioMetrics withPoolOf(LegioStore store) {
    store.meterPool(new MicrometerMetricsTrackerFactory(registry));
    return this;
  }

  private void bindEngine(SessionStore sessions, MessageLog messageLog) {
    for (RebuildReason reason : RebuildReason.values()) {
      FunctionCounter.builder(
              "legio.session.rebuilds",
              engine,
              e -> e.rebuildCounts().getOrDefault(reason, 0L).doubleValue())
          .description("Sessions closed and opened anew, by reason")
          .tag("reason", reason.name().toLowerCase(Locale.ROOT))
          .register(registry);
    }
    FunctionCounter.builder("legio.lease.takeovers", sessions, SessionStore::leaseTakeovers)
        .description("Session leases this process took over from another holder")
        .register(registry);
    FunctionCounter.builder("legio.messages.appended", messageLog, MessageLog::appendedSinceOpen)
        .description("Messages this process appended to the log")
        .register(registry);
    Gauge.builder("legio.active.sessions", engine, SessionEngine::openSessions)
        .description("Sessions open in this process (agents' and channels')")
        .register(registry);
  }

  private Counter tokens(String direction) {
    return Counter.builder("legio.tokens")
        .description("Tokens of the completed turns, as the usage ledger bills them")
        .tag("direction", direction)
        .register(registry);
  }

  /** The {@code agent} label of an owner: its name, or {@code source:*} for a channel. */
  static String agentLabel(dev.legio.session.Owner owner) {
    return owner.isChannel() ? owner.source() + ":*" : owner.name();
  }

  @Override
  public void turnEnded(EndedTurn turn) {
    String agent = agentLabel(turn.owner());
    String outcome = turn.ending().label();
    Counter.builder("legio.turns")
        .description("Turns run for logged requests, by agent and how they ended")
        .tags("agent", agent, "outcome", outcome)
        .register(registry)
        .increment();
    if (turn.ending() == TurnEnding.COMPLETED || turn.ending() == TurnEnding.FAILED) {
      Timer.builder("legio.turn.duration")
          .description("How long the turns that ran took, from their start to the logged reply")
          .tags("agent", agent, "outcome", outcome)
          .serviceLevelObjectives(TURN_BUCKETS)
          .register(registry)
          .record(turn.duration());
    }
    if (turn.completed() != null) {
      LedgerEntry entry = costing.apply(turn.completed());
      Tokens t = entry.tokens();
      inputTokens.increment(t.input());
      outputTokens.increment(t.output());
      cacheReadTokens.increment(t.cacheRead());
      cacheWriteTokens.increment(t.cacheWrite());
      if (entry.cost().usd() != null) {
        cost.increment(entry.cost().usd().doubleValue());
      }
    }
  }

  /** Every metric in Prometheus's text exposition format ({@link #CONTENT_TYPE}). */
  public String scrape() {
    return registry.scrape();
  }

  /** Stops measuring the engine's turns and the JVM's collections. */
  @Override
  public void close() {
    engine.setTurnMeter(TurnMeter.NONE);
    dev.legio.task.TaskSessions measured = tasks;
    if (measured != null) {
      measured.setTurnMeter(TurnMeter.NONE);
    }
    gc.close();
    registry.close();
  }
}
