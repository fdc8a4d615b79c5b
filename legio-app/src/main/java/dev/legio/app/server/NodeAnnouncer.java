package dev.legio.app.server;

import dev.legio.store.NodeDirectory;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node in the {@link NodeDirectory} while its server runs: announces it at start, again
 * every third of the lease time (so that one missed beat does not make it look gone), and removes
 * it when the server stops. A failed announcement is logged and retried at the next beat.
 */
final class NodeAnnouncer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NodeAnnouncer.class);

  private final NodeDirectory nodes;
  private final String node;
  private final URI url;
  private final Clock clock;
  private final ScheduledExecutorService beat =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("legio-node-announce").factory());

  NodeAnnouncer(NodeDirectory nodes, String node, URI url, Duration ttl, Clock clock) {
    this.nodes = nodes;
    this.node = node;
    this.url = url;
    this.clock = clock;
    long every = Math.max(1, ttl.toMillis() / 3);
    beat.scheduleWithFixedDelay(this::announce, 0, every, TimeUnit.MILLISECONDS);
  }

  private void announce() {
    try {
      nodes.announce(node, url, clock.instant());
    } catch (RuntimeException e) {
      log.warn("could not announce node {} at {}: {}", node, url, e.getMessage());
    }
  }

  @Override
  public void close() {
    beat.shutdownNow();
    try {
      beat.awaitTermination(5, TimeUnit.SECONDS);
      nodes.leave(url);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.warn("could not remove node {} at {} from the directory: {}", node, url, e.getMessage());
    }
  }
}
