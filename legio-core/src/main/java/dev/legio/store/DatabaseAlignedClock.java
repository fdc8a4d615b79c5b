package dev.legio.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The time the nodes sharing one PostgreSQL database agree on: this node's clock plus its offset
 * from the database's clock. Every node writes and compares lease, claim and announcement times on
 * it, so a node whose own clock runs ahead neither takes a live lease nor keeps a dead one.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #instant()} is the node's clock plus the offset believed now: it never waits for the
 *       database, so no turn waits for a measurement. Before the first measurement the offset is
 *       zero (the node's own clock).
 *   <li>{@link #measure} reads the database's clock once ({@link DatabaseTime}) between two
 *       readings of the node's clock, and takes the database's reading to be at the midpoint of
 *       that round trip: offset = database's reading - (before + round trip / 2), right within half
 *       the round trip. {@link OffsetSamples} says which measurement is believed.
 *   <li>A measurement that fails (the database is down), or during which the node's clock went
 *       back, changes nothing: the offset believed stays.
 *   <li>When the offset believed goes beyond {@code warnBeyond} either way (a quarter of the lease
 *       time), the log says so once, in words, and again once when it is back within.
 *   <li>Time stays injectable: the node's clock is given, and the offset changes only at a
 *       measurement ({@link #measure}, or {@link #keepMeasuring}'s on its own thread).
 * </ul>
 *
 * On SQLite every process shares one machine's clock, so nothing is aligned there.
 */
public final class DatabaseAlignedClock extends Clock {
  private static final Logger log = LoggerFactory.getLogger(DatabaseAlignedClock.class);

  /** The database's clock, read once ({@code SELECT clock_timestamp()} on PostgreSQL). */
  @FunctionalInterface
  public interface DatabaseTime {
    Instant now() throws Exception;
  }

  /**
   * One measurement: how far the database's clock was ahead of the node's ({@code offset}, negative
   * when behind), the round trip it took, and when it was made on the node's clock.
   */
  public record Measurement(Duration offset, Duration roundTrip, Instant at) {
    public Measurement {
      Objects.requireNonNull(offset, "offset");
      Objects.requireNonNull(roundTrip, "roundTrip");
      Objects.requireNonNull(at, "at");
    }

    /**
     * In words: "this machine's clock is 2.500 s ahead of the database's (measured with a round
     * trip of 3 ms)".
     */
    public String inWords() {
      return "this machine's clock is "
          + describe(offset)
          + " the database's (measured with a round trip of "
          + roundTrip.toMillis()
          + " ms)";
    }
  }

  private final Clock node;
  private final ZoneId zone;
  private final Duration warnBeyond;
  private final OffsetSamples samples;
  private final State state;

  /** What the clocks of every zone share: the offset believed and whether the log warned. */
  private static final class State {
    volatile Duration offset = Duration.ZERO;
    boolean warned;
  }

  /**
   * @param node this node's own clock
   * @param warnBeyond an offset beyond which (either way) the log warns
   */
  public DatabaseAlignedClock(Clock node, Duration warnBeyond) {
    this(node, node.getZone(), warnBeyond, new OffsetSamples(), new State());
  }

  private DatabaseAlignedClock(
      Clock node, ZoneId zone, Duration warnBeyond, OffsetSamples samples, State state) {
    this.node = Objects.requireNonNull(node, "node");
    this.zone = Objects.requireNonNull(zone, "zone");
    this.warnBeyond = Objects.requireNonNull(warnBeyond, "warnBeyond");
    this.samples = samples;
    this.state = state;
  }

  @Override
  public Instant instant() {
    return node.instant().plus(state.offset);
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return zone.equals(this.zone)
        ? this
        : new DatabaseAlignedClock(node, zone, warnBeyond, samples, state);
  }

  /** How far the database's clock is ahead of this node's, as believed now (negative: behind). */
  public Duration offset() {
    return state.offset;
  }

  /** The measurement believed now; empty before the first that succeeded. */
  public Optional<Measurement> believed() {
    return samples.believed();
  }

  /**
   * Measures the offset once against {@code database}; returns this measurement, or empty when it
   * failed (the offset believed stays).
   */
  public Optional<Measurement> measure(DatabaseTime database) {
    Instant before = node.instant();
    Instant theirs;
    try {
      theirs = database.now();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      log.debug("measuring this node's clock against the database's failed: {}", e.toString());
      return Optional.empty();
    }
    Instant after = node.instant();
    Duration roundTrip = Duration.between(before, after);
    if (roundTrip.isNegative()) {
      return Optional.empty(); // the node's clock went back meanwhile: no midpoint to trust
    }
    Instant midpoint = before.plus(roundTrip.dividedBy(2));
    Measurement measured = new Measurement(Duration.between(midpoint, theirs), roundTrip, after);
    believe(samples.add(measured));
    return Optional.of(measured);
  }

  private synchronized void believe(Measurement believed) {
    state.offset = believed.offset();
    boolean beyond = believed.offset().abs().compareTo(warnBeyond) > 0;
    if (beyond && !state.warned) {
      state.warned = true;
      log.warn(
          "{}; Legio compares leases on the database's time, so they stay right, but set the"
              + " clock right (NTP, chrony): log lines carry this machine's time",
          believed.inWords());
    } else if (!beyond && state.warned) {
      state.warned = false;
      log.info(
          "this machine's clock is back within {} s of the database's: now {} the database's",
          seconds(warnBeyond),
          describe(believed.offset()));
    }
  }

  /**
   * Measures every {@code every} (the first time after {@code every}) on a thread of its own, until
   * the returned handle is closed; a measurement that fails waits for the next.
   */
  public AutoCloseable keepMeasuring(DatabaseTime database, Duration every) {
    Objects.requireNonNull(database, "database");
    ScheduledExecutorService thread =
        new ScheduledThreadPoolExecutor(
            1, r -> Thread.ofPlatform().daemon().name("legio-clock-alignment").unstarted(r));
    long millis = Math.max(1, every.toMillis());
    thread.scheduleWithFixedDelay(() -> measure(database), millis, millis, TimeUnit.MILLISECONDS);
    return thread::shutdownNow;
  }

  /** An offset in words: "2.500 s ahead of" or "0.004 s behind" (the database's clock). */
  public static String describe(Duration offset) {
    // The offset is the database's lead, so a positive one means this machine is behind.
    return seconds(offset.abs()) + " s " + (offset.isNegative() ? "ahead of" : "behind");
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.3f", d.toNanos() / 1e9);
  }
}
