package dev.legio.task;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@link TaskSlot}s this process holds: one per (key, agent) with a turn running or waiting, or
 * a live back-end session.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A turn holds its slot's lock: tasks of one (key, agent) run one at a time, in the order
 *       they asked ({@link #lock}); different pairs run in parallel.
 *   <li>A slot with no live session and nobody waiting for it is retired ({@link #retireIfUnused},
 *       by whoever holds its lock): a platform that runs tasks for ever new keys keeps only the
 *       slots in use, not one per key it ever saw. Nothing is lost: a slot's record is read again
 *       from the store at every turn.
 *   <li>A turn that locked a slot retired meanwhile lets it go and takes the current one, so there
 *       is never more than one slot, and one turn, per (key, agent) at a time.
 * </ul>
 */
final class TaskSlots {
  private record Pair(String key, String agent) {}

  private final Map<Pair, TaskSlot> slots = new ConcurrentHashMap<>();

  /**
   * The (key, agent) slot, locked, waiting up to {@code wait} nanoseconds; null when it stayed busy
   * that long.
   */
  TaskSlot lock(String key, String agent, long waitNanos) throws InterruptedException {
    Pair pair = new Pair(key, agent);
    long start = System.nanoTime();
    while (true) {
      TaskSlot slot = slots.computeIfAbsent(pair, p -> new TaskSlot());
      long left = Math.max(0, waitNanos - (System.nanoTime() - start));
      if (!slot.lock.tryLock(left, TimeUnit.NANOSECONDS)) {
        return null;
      }
      if (slots.get(pair) == slot) {
        return slot;
      }
      slot.lock.unlock(); // retired while this turn waited for it: take the current one
    }
  }

  /** The (key, agent) slot, or null when this process holds none. */
  TaskSlot get(String key, String agent) {
    return slots.get(new Pair(key, agent));
  }

  /**
   * Retires the (key, agent) slot when it has no live session and nobody waits for it; the caller
   * holds its lock.
   */
  void retireIfUnused(String key, String agent, TaskSlot slot) {
    if (slot.live == null && !slot.lock.hasQueuedThreads()) {
      slots.remove(new Pair(key, agent), slot);
    }
  }

  /** Calls {@code action} with each slot held, with the pair it belongs to. */
  void forEach(SlotAction action) {
    slots.forEach((pair, slot) -> action.accept(pair.key(), pair.agent(), slot));
  }

  /** Each slot, for {@link #forEach}. */
  @FunctionalInterface
  interface SlotAction {
    void accept(String key, String agent, TaskSlot slot);
  }

  /** How many slots this process holds. */
  int size() {
    return slots.size();
  }
}
