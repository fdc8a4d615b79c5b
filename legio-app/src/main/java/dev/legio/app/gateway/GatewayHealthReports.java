package dev.legio.app.gateway;

import dev.legio.store.gateway.GatewayReport;
import dev.legio.store.gateway.GatewayStateStore;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores every gateway's health in the database every {@link #EVERY} and once more on close, so
 * that {@code legio status}, another process, shows what the serving process sees. Generic over the
 * gateways: whatever {@link Gateways#health()} lists is stored.
 */
public final class GatewayHealthReports implements AutoCloseable {
  public static final Duration EVERY = Duration.ofSeconds(10);
  private static final Logger log = LoggerFactory.getLogger(GatewayHealthReports.class);

  private final Gateways gateways;
  private final GatewayStateStore store;
  private final Clock clock;
  private ScheduledExecutorService timer;

  public GatewayHealthReports(Gateways gateways, GatewayStateStore store, Clock clock) {
    this.gateways = gateways;
    this.store = store;
    this.clock = clock;
  }

  /** Starts storing (nothing to do without gateways). */
  public GatewayHealthReports start() {
    if (gateways.all().isEmpty()) {
      return this;
    }
    timer =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("legio-gateway-health").factory());
    timer.scheduleAtFixedRate(this::storeNow, 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** Stores each gateway's health now. */
  public void storeNow() {
    for (GatewayHealth h : gateways.health()) {
      try {
        store.report(
            new GatewayReport(
                h.name(),
                h.stateName(),
                h.detail(),
                h.messagesIn(),
                h.messagesOut(),
                clock.instant()));
      } catch (RuntimeException e) {
        log.warn("could not store the health of gateway {}: {}", h.name(), e.getMessage());
      }
    }
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
      storeNow();
      timer = null;
    }
  }
}
