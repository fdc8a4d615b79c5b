package dev.legio.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a {@link TurnListener} about completed turns on a thread of its own, off the turns' path,
 * in the order they completed. Turns that complete close together are handed over as one batch (the
 * listener then writes each transcript once for several turns): after the first turn of a batch it
 * waits {@link #GATHER} for more.
 *
 * <p>{@link #close} hands over what is queued and stops; a turn completed after that is told on the
 * caller's thread.
 */
final class TurnNotifier {
  private static final Logger log = LoggerFactory.getLogger(TurnNotifier.class);

  /** How long a batch gathers turns after its first. */
  static final Duration GATHER = Duration.ofMillis(10);

  private static final int MAX_BATCH = 256;
  private static final CompletedTurn STOP =
      new CompletedTurn("", new java.util.UUID(0, 0), false, "", "", null, null, null);

  private final TurnListener listener;
  private final BlockingQueue<CompletedTurn> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile boolean stopped;

  TurnNotifier(TurnListener listener) {
    this.listener = listener;
    this.thread = Thread.ofVirtual().name("legio-turn-listener").start(this::loop);
  }

  void completed(CompletedTurn turn) {
    if (stopped) {
      tell(List.of(turn));
      return;
    }
    queue.add(turn);
  }

  private void loop() {
    List<CompletedTurn> batch = new ArrayList<>();
    boolean stopping = false;
    while (!stopping) {
      try {
        batch.add(queue.take());
        if (batch.get(0) != STOP) {
          Thread.sleep(GATHER);
        }
      } catch (InterruptedException e) {
        stopping = true;
      }
      queue.drainTo(batch, MAX_BATCH);
      stopping |= batch.remove(STOP);
      if (!batch.isEmpty()) {
        tell(batch);
      }
      batch.clear();
    }
  }

  private void tell(List<CompletedTurn> turns) {
    try {
      listener.turnsCompleted(List.copyOf(turns));
    } catch (RuntimeException e) {
      log.warn(
          "the turn listener failed for {} turn(s) (the turns themselves succeeded)",
          turns.size(),
          e);
    }
  }

  /** Hands over what is queued (waiting up to {@code grace}) and stops. */
  void close(Duration grace) {
    stopped = true;
    queue.add(STOP);
    try {
      if (!thread.join(grace)) {
        log.warn("the turn listener (transcripts) did not finish within the shutdown grace");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
