package dev.legio.log.jdbc;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Whether the log's writer can write to the database now: what readiness ({@code GET /readyz})
 * asks, so that a load balancer stops sending requests to a node that cannot log them.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li><b>Stalled</b> while the writer's transaction under way has run longer than {@link
 *       #STALLED_AFTER} (15 s). An ordinary transaction takes milliseconds, a checkpoint of the
 *       write-ahead log a second or two; 15 s lies past SQLite's busy wait (10 s), so a write that
 *       merely waits on another program's lock is told by the failure it ends in, and well short of
 *       PostgreSQL's socket time-out (60 s), so a node whose connection stalled is taken out of the
 *       load balancer's rotation 45 s before the driver gives up on it. (A {@code legio log import}
 *       or a prune of a year may run longer, and every other write of the node waits for it
 *       meanwhile: not ready is then the truth.)
 *   <li><b>Failing</b> from a write that failed until a write succeeds. A node that is not ready
 *       gets no requests and so makes no writes: while failing, the writer's owner probes with a
 *       write of its own that fails wherever a real write would ({@link Dialect#probeWrite},
 *       started by {@link JdbcMessageLog#writerProblem}).
 *   <li>A write the database refused for what it holds ({@link ContentRefusal}: a constraint it
 *       broke, a value its column cannot hold) is no failure of the writer and changes nothing
 *       here: that write alone fails (its caller is told), the database takes the others, and
 *       another node would be refused the same, so the node stays in rotation. Nor does it count as
 *       a write that succeeded: a writer failing before it stays failing.
 *   <li>Otherwise healthy. Reading costs two volatile reads: readiness may ask as often as it
 *       likes.
 * </ul>
 */
final class WriterHealth {
  /** How long a transaction may run before the writer counts as stalled. */
  static final Duration STALLED_AFTER = Duration.ofSeconds(15);

  private final LongSupplier nanoTime;

  /** No transaction under way: what {@link #transactionSince} holds then. */
  private static final long NONE = Long.MIN_VALUE;

  /**
   * When the transaction under way began ({@link #nanoTime}), or {@link #NONE}: a primitive, so the
   * writer's path allocates nothing per transaction.
   */
  private volatile long transactionSince = NONE;

  /** Why the last write failed, or null when it succeeded. */
  private volatile String failure;

  WriterHealth(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** The writer begins a transaction. */
  void began() {
    transactionSince = nanoTime.getAsLong();
  }

  /** The writer's transaction (and the runs of its works alone) ended. */
  void ended() {
    transactionSince = NONE;
  }

  /** A write failed, for the reason in {@code why} (in words, without secrets). */
  void failed(String why) {
    failure = why;
  }

  /** A write succeeded. */
  void succeeded() {
    failure = null;
  }

  /** True while the last write failed. */
  boolean failing() {
    return failure != null;
  }

  /** What is wrong with the writer now, in a sentence naming the database problem; or empty. */
  Optional<String> problem() {
    long since = transactionSince;
    if (since != NONE) {
      long running = nanoTime.getAsLong() - since;
      if (running > STALLED_AFTER.toNanos()) {
        return Optional.of(
            "the database has not finished the log writer's transaction for "
                + Duration.ofNanos(running).toSeconds()
                + " s (a stalled connection, or a lock held by another program)");
      }
    }
    String why = failure;
    return why == null
        ? Optional.empty()
        : Optional.of("the last write to the database failed: " + why);
  }
}
