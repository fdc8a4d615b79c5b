package dev.legio.store;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;

/**
 * Which of a node's measurements of its clock's offset from the database's clock to believe.
 *
 * <p>A measurement reads the database's clock between two readings of the node's clock; the
 * database's reading may have been taken anywhere within that round trip, so the true offset lies
 * within half the round trip either side of the measured one. Rules:
 *
 * <ul>
 *   <li>The last {@value #KEPT} measurements are kept.
 *   <li>The one believed is the kept one with the smallest round trip (the narrowest range); of
 *       equal round trips, the newest. A measurement slowed by a busy machine or network is thus
 *       passed over while a faster one is kept.
 *   <li>A new measurement whose range does not overlap the believed one's means that a clock has
 *       stepped (the node's or the database's, say NTP correcting one): the older measurements are
 *       dropped and the new one is believed, so a step is followed at once rather than after
 *       {@value #KEPT} measurements.
 * </ul>
 *
 * Thread-safe.
 */
final class OffsetSamples {
  /** How many measurements are kept. */
  static final int KEPT = 8;

  private final Deque<DatabaseAlignedClock.Measurement> kept = new ArrayDeque<>();

  /** Keeps {@code measurement}; returns the one believed now. */
  synchronized DatabaseAlignedClock.Measurement add(DatabaseAlignedClock.Measurement measurement) {
    Objects.requireNonNull(measurement, "measurement");
    Optional<DatabaseAlignedClock.Measurement> believed = believed();
    if (believed.isPresent() && !overlap(believed.get(), measurement)) {
      kept.clear();
    }
    kept.addLast(measurement);
    while (kept.size() > KEPT) {
      kept.removeFirst();
    }
    return believed().orElseThrow();
  }

  /** The measurement believed now; empty before the first. */
  synchronized Optional<DatabaseAlignedClock.Measurement> believed() {
    DatabaseAlignedClock.Measurement best = null;
    // Newest first, so that of equal round trips the newest wins.
    for (var i = kept.descendingIterator(); i.hasNext(); ) {
      DatabaseAlignedClock.Measurement m = i.next();
      if (best == null || m.roundTrip().compareTo(best.roundTrip()) < 0) {
        best = m;
      }
    }
    return Optional.ofNullable(best);
  }

  private static boolean overlap(
      DatabaseAlignedClock.Measurement a, DatabaseAlignedClock.Measurement b) {
    Duration reach = a.roundTrip().plus(b.roundTrip()).dividedBy(2);
    return a.offset().minus(b.offset()).abs().compareTo(reach) <= 0;
  }
}
