package dev.legio.log.jdbc;

/**
 * How long the log's writer waits for more appends before it starts a transaction: an adaptive
 * commit delay, so that concurrent writers share one commit instead of splitting into two groups
 * that take turns (while one group's transaction commits, the writers just released by the last
 * commit are still waking up; without a wait they would always miss it).
 *
 * <ol>
 *   <li>It waits only while fewer requests are queued than the largest transaction seen recently
 *       ("recently": that maximum shrinks by an eighth with every transaction that is smaller). A
 *       lone writer therefore never waits.
 *   <li>It waits at most a quarter of a recent transaction's duration, and never more than 2 ms: if
 *       the writers it expects do not come, a commit is at most 25% later than it could have been.
 * </ol>
 *
 * Not thread-safe: used by the one caller that runs the writer's transactions.
 */
final class CommitDelay {
  static final long MAX_WAIT_NANOS = 2_000_000;

  private double largestBatch = 1;
  private double transactionNanos;

  /** How many queued requests make waiting pointless (the transaction is already as large). */
  int expectedBatch() {
    return (int) Math.round(largestBatch);
  }

  /** How long to wait for more requests when {@code queued} are waiting; 0 for not at all. */
  long waitNanos(int queued) {
    if (queued >= expectedBatch()) {
      return 0;
    }
    return Math.min(MAX_WAIT_NANOS, (long) (transactionNanos / 4));
  }

  /**
   * Records a transaction of {@code batch} requests that took {@code nanos} from begin to commit.
   */
  void record(int batch, long nanos) {
    largestBatch = batch >= largestBatch ? batch : Math.max(batch, largestBatch * 7 / 8);
    transactionNanos = transactionNanos == 0 ? nanos : transactionNanos * 7 / 8 + nanos / 8.0;
  }
}
