package dev.legio.session;

import dev.legio.log.NewMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Posts a request: logs it and gives each of its owners' turn queues its place, as one step.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>An owner's requests are queued in the order they are logged: its posting lock is held from
 *       the append to the enqueue. A request to several agents takes their locks in name order, so
 *       two requests to the same agents cannot wait for each other; requests to other agents do not
 *       wait at all, and their appends can share a commit.
 *   <li>A channel's slot is taken from the pool, the request logged and queued under the pool's one
 *       posting lock, so the pool cannot push the channel out between the append and the enqueue.
 *   <li>A request to one owner takes the owner's lease in the transaction that logs it, when
 *       nothing in this process runs or waits for that owner ({@link RequestIntake}).
 *   <li>No request is posted once the engine stops ({@link EngineShutdown#startPosting}): it is
 *       refused before it is logged, and one posted before the stop has its queue places.
 * </ul>
 */
final class RequestPosting {
  private final OwnerSlots slots;
  private final RequestIntake intake;
  private final EngineShutdown shutdown;

  RequestPosting(OwnerSlots slots, RequestIntake intake, EngineShutdown shutdown) {
    this.slots = slots;
    this.intake = intake;
    this.shutdown = shutdown;
  }

  /**
   * A posted request: what the log holds, and each owner's slot with its place in the owner's
   * queue, in the order the owners were named.
   */
  record Posted(RequestIntake.Logged logged, List<OwnerSlot> slots, List<TurnQueue.Place> places) {}

  /** Posts {@code message} to the agents {@code targets} names, in that order. */
  Posted toAgents(NewMessage message, List<String> targets) {
    List<OwnerSlot> targetSlots = new ArrayList<>(targets.size());
    for (String target : targets) {
      targetSlots.add(slots.agent(target));
    }
    List<OwnerSlot> lockOrder = new ArrayList<>(targetSlots);
    lockOrder.sort(Comparator.comparing(OwnerSlot::name));
    List<TurnQueue.Place> places = new ArrayList<>(targets.size());
    shutdown.startPosting();
    try {
      lockOrder.forEach(slot -> slot.posting.lock());
      try {
        RequestIntake.Logged logged =
            intake.log(message, targetSlots.size() == 1 ? targetSlots.get(0) : null);
        for (OwnerSlot slot : targetSlots) {
          places.add(slot.queue.enqueue());
        }
        return new Posted(logged, targetSlots, places);
      } finally {
        lockOrder.forEach(slot -> slot.posting.unlock());
      }
    } finally {
      shutdown.endPosting();
    }
  }

  /** Posts {@code message} to the channel {@code channel}'s session. */
  Posted toChannel(NewMessage message, Owner channel) {
    shutdown.startPosting();
    try {
      synchronized (slots.channelPosting) {
        OwnerSlot slot = slots.channel(channel);
        RequestIntake.Logged logged = intake.log(message, slot);
        return new Posted(logged, List.of(slot), List.of(slot.queue.enqueue()));
      }
    } finally {
      shutdown.endPosting();
    }
  }
}
