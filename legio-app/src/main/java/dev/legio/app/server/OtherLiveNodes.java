package dev.legio.app.server;

import dev.legio.store.NodeDirectory;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The live nodes other than this one, as {@link SessionAffinity} asks for them before every turn:
 * read from the database at most once every {@link #MAX_AGE}, so that a node that is alone reads
 * nothing per request (its API's overhead at p99 was 1.3 – 2.0 ms more with a read of the session's
 * home per turn, docs/BENCHMARKS.md, session 19).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A reading serves for {@link #MAX_AGE}. A node that starts or stops is seen that much later
 *       at most, against the lease time (30 s by default) that liveness already allows; a turn sent
 *       to a node that has just stopped is refused and runs here ({@link PeerRelay}).
 *   <li>The first call reads. Later, when the reading is older than {@link #MAX_AGE}, one caller
 *       reads again and the others go on with the last reading meanwhile: no request waits for
 *       another's read.
 *   <li>A read that fails throws to its caller and leaves the last reading as it was; the next call
 *       tries again.
 *   <li>"Other": every live node whose URL is not this node's own, as it was when the reading was
 *       made (while this node's URL is not known yet, every live node). The reading is filtered
 *       once, as it is made, not at every request.
 * </ul>
 */
final class OtherLiveNodes {
  /** How old a reading may be before it is read again. */
  static final Duration MAX_AGE = Duration.ofSeconds(1);

  private record Reading(List<NodeDirectory.Node> others, long readAtNanos) {}

  private final Supplier<List<NodeDirectory.Node>> readLive;
  private final Supplier<URI> self;
  private final LongSupplier nanoTime;
  private final AtomicBoolean reading = new AtomicBoolean();
  private volatile Reading last;

  /**
   * @param readLive reads the live nodes from the database (this one among them)
   * @param self this node's URL; null while it is not known
   * @param nanoTime the clock that ages readings ({@code System::nanoTime})
   */
  OtherLiveNodes(
      Supplier<List<NodeDirectory.Node>> readLive, Supplier<URI> self, LongSupplier nanoTime) {
    this.readLive = readLive;
    this.self = self;
    this.nanoTime = nanoTime;
  }

  /** The live nodes other than this one. */
  List<NodeDirectory.Node> get() {
    return current().others();
  }

  private Reading current() {
    Reading r = last;
    if (r == null) {
      synchronized (this) {
        r = last;
        if (r == null) {
          r = read();
        }
      }
      return r;
    }
    if (nanoTime.getAsLong() - r.readAtNanos() < MAX_AGE.toNanos()
        || !reading.compareAndSet(false, true)) {
      return r;
    }
    try {
      return read();
    } finally {
      reading.set(false);
    }
  }

  private Reading read() {
    URI me = self.get();
    List<NodeDirectory.Node> others = new ArrayList<>();
    for (NodeDirectory.Node n : readLive.get()) {
      if (!n.url().equals(me)) {
        others.add(n);
      }
    }
    Reading r = new Reading(List.copyOf(others), nanoTime.getAsLong());
    last = r;
    return r;
  }
}
