package dev.legio.app.gateway;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chat gateways {@code legio serve} runs, in config order: started after the server; at a drain
 * they stop taking messages first, their turns finish within the server's grace (or are interrupted
 * with the API's), then they close, before the engine.
 *
 * <p>Rule: one gateway's failure never stops another or the server: a gateway whose {@link
 * Gateway#start()} throws is logged and shown as failing, and the others start.
 */
public final class Gateways implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Gateways.class);

  /** No gateway: what the embedded defaults and the tests of other parts run with. */
  public static final Gateways NONE = new Gateways(List.of());

  private final List<Gateway> gateways;
  private final Map<String, String> startFailures = new LinkedHashMap<>();

  public Gateways(List<Gateway> gateways) {
    this.gateways = List.copyOf(gateways);
  }

  public List<Gateway> all() {
    return gateways;
  }

  /** Every gateway's HTTP handlers, by path. */
  public Map<String, Handler> routes() {
    Map<String, Handler> routes = new LinkedHashMap<>();
    for (Gateway g : gateways) {
      routes.putAll(g.routes());
    }
    return routes;
  }

  /** Starts each gateway; one that throws is logged and shown as failing. */
  public void start() {
    for (Gateway g : gateways) {
      try {
        g.start();
        log.info("gateway {}: started", g.name());
      } catch (RuntimeException e) {
        synchronized (startFailures) {
          startFailures.put(g.name(), String.valueOf(e.getMessage()));
        }
        log.error("gateway {}: could not start: {}", g.name(), e.getMessage());
      }
    }
  }

  /** Each gateway's health, in config order. */
  public List<GatewayHealth> health() {
    List<GatewayHealth> out = new ArrayList<>();
    for (Gateway g : gateways) {
      String failure;
      synchronized (startFailures) {
        failure = startFailures.get(g.name());
      }
      out.add(
          failure != null
              ? new GatewayHealth(
                  g.name(), GatewayHealth.State.FAILING, "could not start: " + failure, 0, 0)
              : g.health());
    }
    return out;
  }

  /** Each gateway takes no new message; turns in flight go on ({@link Gateway#stopTaking}). */
  public void stopTaking() {
    for (Gateway g : gateways) {
      try {
        g.stopTaking();
      } catch (RuntimeException e) {
        log.warn("gateway {}: error while stopping: {}", g.name(), e.getMessage());
      }
    }
  }

  @Override
  public void close() {
    for (Gateway g : gateways) {
      try {
        g.close();
      } catch (RuntimeException e) {
        log.warn("gateway {}: error while closing: {}", g.name(), e.getMessage());
      }
    }
  }
}
