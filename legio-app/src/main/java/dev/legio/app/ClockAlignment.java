package dev.legio.app;

import dev.legio.config.PraetoriumSettings;
import dev.legio.store.DatabaseAlignedClock;
import dev.legio.store.LegioStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which clock a node's parts run on, and how it is kept on the database's time.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>On PostgreSQL (nodes on several machines) every part the app builds (the store, whose lease
 *       heartbeat and message times use it, the engine, the task sessions, the singleton jobs, the
 *       gateways' inbox claims and poller leases, the node announcements) runs on one {@link
 *       DatabaseAlignedClock} over the node's clock: leases are written and compared on the
 *       database's time, whatever this machine's clock says.
 *   <li>It is measured when the store opens; a long-running command ({@code serve}, {@code chat},
 *       Legio embedded) measures it again every third of {@code [sessions] lease_ttl_seconds}, on a
 *       thread of its own. A measurement that fails keeps the offset (zero before the first) and
 *       never holds up a turn.
 *   <li>The log warns when this machine's clock is off the database's by more than a quarter of the
 *       lease time.
 *   <li>On SQLite every process reads one machine's clock: the node's clock is used as given.
 * </ul>
 */
final class ClockAlignment implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClockAlignment.class);

  /** How many measurements are made when the store opens. */
  static final int FIRST_MEASUREMENTS = 3;

  private final Clock clock;
  private final DatabaseAlignedClock aligned;
  private final Duration every;
  private AutoCloseable measuring;

  private ClockAlignment(Clock clock, DatabaseAlignedClock aligned, Duration every) {
    this.clock = clock;
    this.aligned = aligned;
    this.every = every;
  }

  /** The clock of a node on {@code praetorium}, over {@code node}, for leases of {@code ttl}. */
  static ClockAlignment of(PraetoriumSettings praetorium, Duration ttl, Clock node) {
    Objects.requireNonNull(node, "node");
    if (praetorium.store() != PraetoriumSettings.Store.POSTGRES) {
      return new ClockAlignment(node, null, null);
    }
    DatabaseAlignedClock aligned = new DatabaseAlignedClock(node, ttl.dividedBy(4));
    return new ClockAlignment(aligned, aligned, dev.legio.session.HeldLeases.heartbeatFor(ttl));
  }

  /** The clock the app's parts run on. */
  Clock clock() {
    return clock;
  }

  /** This node's clock against the database's, when it is aligned (PostgreSQL). */
  Optional<DatabaseAlignedClock> aligned() {
    return Optional.ofNullable(aligned);
  }

  /**
   * Measures against {@code store}'s database now, and keeps measuring when {@code longRunning}.
   */
  synchronized void opened(LegioStore store, boolean longRunning) {
    if (aligned == null) {
      return;
    }
    DatabaseAlignedClock.DatabaseTime database = store.databaseTime();
    for (int i = 0; i < FIRST_MEASUREMENTS; i++) {
      aligned.measure(database); // before any lease is taken; the fastest of them believed
    }
    if (longRunning) {
      measuring = aligned.keepMeasuring(database, every);
    }
  }

  /** Stops measuring (the store is closing). */
  @Override
  public synchronized void close() {
    if (measuring != null) {
      try {
        measuring.close();
      } catch (Exception e) {
        log.debug("stopping the clock's measurements: {}", e.toString());
      }
      measuring = null;
    }
  }
}
