package dev.legio.app.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether this node should be sent new turns: what {@code GET /readyz} answers, for a load
 * balancer.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Ready when the store answers a query within {@link #STORE_TIMEOUT}, every migration this
 *       build knows is applied to it, its writer can write (no transaction stuck on the database,
 *       the last write not failed: {@code log.jdbc.WriterHealth} has the bound and why), and the
 *       node is not draining; otherwise not ready, with each failing check named.
 *   <li>A writer that failed turns ready again once a write succeeds, a request's or the probe the
 *       check itself starts (a node out of rotation gets no requests to write).
 *   <li>A write the database refused for what it holds (a constraint it broke: {@code
 *       log.jdbc.ContentRefusal}) is no failure of the writer: the node stays ready, since its
 *       database takes other writes and every node would be refused the same.
 *   <li>Draining begins with {@link #drain()} (the server's shutdown, SIGTERM in {@code legio
 *       serve}) and never ends: a node that drains is on its way out.
 *   <li>A store check that throws counts as unreachable, with the reason (no secrets: the store's
 *       own messages redact its URL).
 *   <li>On PostgreSQL the report shows {@code clock_offset_ms}: how far the database's clock is
 *       ahead of this machine's (negative: behind), as last measured. It is no check: leases are
 *       compared on the database's time ({@code store.DatabaseAlignedClock}), so an offset never
 *       makes a node unready.
 * </ul>
 */
public final class Readiness {
  /** The longest a readiness check waits for the store. */
  public static final Duration STORE_TIMEOUT = Duration.ofSeconds(3);

  /** What the store says of itself. */
  public record StoreHealth(
      String unreachable, List<String> pendingMigrations, String writerProblem) {
    public StoreHealth {
      pendingMigrations = List.copyOf(pendingMigrations);
    }

    /** A store whose writer is fine, or not known to be otherwise. */
    public StoreHealth(String unreachable, List<String> pendingMigrations) {
      this(unreachable, pendingMigrations, null);
    }

    public static StoreHealth healthy() {
      return new StoreHealth(null, List.of());
    }
  }

  /** Checks the store: reachable, migrations applied. */
  @FunctionalInterface
  public interface StoreCheck {
    StoreHealth check();
  }

  /**
   * The readiness of {@code app}'s node: its store's {@linkplain dev.legio.store.LegioStore#health
   * health}.
   */
  public static Readiness of(dev.legio.app.LegioApp app) {
    dev.legio.store.LegioStore store = app.store();
    return new Readiness(
        () -> {
          var health = store.health();
          return new StoreHealth(
              health.unreachable(), health.pendingMigrations(), health.writerProblem());
        },
        () ->
            app.databaseAlignedClock()
                .flatMap(dev.legio.store.DatabaseAlignedClock::believed)
                .map(dev.legio.store.DatabaseAlignedClock.Measurement::offset));
  }

  /** A node whose store is always fine (tests without a database). */
  public static Readiness alwaysReady() {
    return new Readiness(StoreHealth::healthy);
  }

  private final StoreCheck store;
  private final java.util.function.Supplier<java.util.Optional<Duration>> clockOffset;
  private volatile boolean draining;

  public Readiness(StoreCheck store) {
    this(store, java.util.Optional::empty);
  }

  /**
   * @param clockOffset the database's clock's lead over this machine's, when measured
   */
  public Readiness(
      StoreCheck store, java.util.function.Supplier<java.util.Optional<Duration>> clockOffset) {
    this.store = Objects.requireNonNull(store, "store");
    this.clockOffset = Objects.requireNonNull(clockOffset, "clockOffset");
  }

  /** From now on the node is not ready: it is draining. */
  public void drain() {
    draining = true;
  }

  /** The answer of {@code /readyz}: whether ready, and each check. */
  public record Report(
      boolean ready,
      boolean storeReachable,
      boolean migrationsCurrent,
      boolean writesSucceeding,
      boolean draining,
      List<String> reasons,
      Duration clockOffset) {
    Map<String, Object> json() {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("status", ready ? "ready" : "not ready");
      out.put("store_reachable", storeReachable);
      out.put("migrations_current", migrationsCurrent);
      out.put("writes_succeeding", writesSucceeding);
      out.put("draining", draining);
      out.put("reasons", reasons);
      if (clockOffset != null) {
        out.put("clock_offset_ms", clockOffset.toMillis());
      }
      return out;
    }
  }

  /** Checks now. */
  public Report check() {
    List<String> reasons = new ArrayList<>();
    boolean isDraining = draining;
    if (isDraining) {
      reasons.add("draining: this node is shutting down and takes no new turns");
    }
    StoreHealth health = storeHealth();
    boolean reachable = health.unreachable() == null;
    if (!reachable) {
      reasons.add("store unreachable: " + health.unreachable());
    }
    boolean current = reachable && health.pendingMigrations().isEmpty();
    if (reachable && !current) {
      reasons.add(
          "migrations not applied: "
              + String.join(", ", health.pendingMigrations())
              + " (restart a node of this version to apply them)");
    }
    boolean writing = health.writerProblem() == null;
    if (!writing) {
      reasons.add("database writes failing: " + health.writerProblem());
    }
    return new Report(
        reachable && current && writing && !isDraining,
        reachable,
        current,
        writing,
        isDraining,
        reasons,
        clockOffset.get().orElse(null));
  }

  private StoreHealth storeHealth() {
    // A thread of its own per check (interrupted when it takes too long), not an executor each.
    java.util.concurrent.FutureTask<StoreHealth> checked =
        new java.util.concurrent.FutureTask<>(store::check);
    Thread.ofVirtual().name("legio-readiness-check").start(checked);
    try {
      return checked.get(STORE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      checked.cancel(true);
      return new StoreHealth(
          "it did not answer within " + STORE_TIMEOUT.toSeconds() + " s", List.of());
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return new StoreHealth(String.valueOf(cause.getMessage()), List.of());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new StoreHealth("the check was interrupted", List.of());
    }
  }
}
