package dev.legio.session;

import dev.legio.log.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the turns of one request to several agents at once, one virtual thread each, and the
 * engine's other work that must not wait on the caller's thread (closing an evicted channel).
 *
 * <p>Rule: each agent's answer comes back in the order the agents were given; a turn that throws,
 * or a wait that is interrupted, answers as failed for its agent alone.
 */
final class ParallelTurns {
  private static final Logger log = LoggerFactory.getLogger(ParallelTurns.class);

  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final TurnRunner turns;

  ParallelTurns(TurnRunner turns) {
    this.turns = turns;
  }

  /** Runs each slot's turn for {@code request} at its place; returns the answers in order. */
  List<Reply> run(
      List<OwnerSlot> slots,
      List<TurnQueue.Place> places,
      Message request,
      DispatchListener listener,
      boolean again) {
    List<Future<Reply>> pending = new ArrayList<>(slots.size());
    for (int i = 0; i < slots.size(); i++) {
      OwnerSlot slot = slots.get(i);
      TurnQueue.Place place = places.get(i);
      pending.add(threads.submit(() -> turns.run(slot, place, request, listener, false, again)));
    }
    List<Reply> replies = new ArrayList<>(slots.size());
    for (int i = 0; i < slots.size(); i++) {
      replies.add(await(pending.get(i), slots.get(i)));
    }
    return replies;
  }

  /** Runs {@code work} on a thread of its own. */
  void submit(Runnable work) {
    threads.submit(work);
  }

  /** Takes no more work. */
  void shutdown() {
    threads.shutdown();
  }

  private Reply await(Future<Reply> future, OwnerSlot slot) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return turns.waitInterrupted(slot);
    } catch (ExecutionException e) {
      log.error("dispatch to {} failed", slot.name(), e.getCause());
      return turns.failure(slot);
    }
  }
}
