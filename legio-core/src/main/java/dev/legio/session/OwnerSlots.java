package dev.legio.session;

import dev.legio.log.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The slots of the owners this process serves: one per agent, made on first use, and the channels'
 * in the {@link ChannelPool}; and where a request's or an edit's place in an owner's queue is
 * taken.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A request takes its place under its slot's posting lock (a channel's: the channels' one,
 *       since the pool may evict a slot meanwhile), from its logging to its place; an edit takes
 *       its place under the same lock, so it never comes between a request and its place.
 *   <li>A channel pushed out of the pool at its limit is handed to {@code evicted}, which closes
 *       its session after its turns.
 *   <li>An owner this process holds no slot for (a channel another node serves, an agent it never
 *       served) has no place here: an edit of it waits on its lease alone.
 * </ul>
 */
final class OwnerSlots {
  private final Map<String, OwnerSlot> agents = new ConcurrentHashMap<>();
  private final ChannelPool channels;
  private final Supplier<Set<String>> knownAgents;
  private final Consumer<OwnerSlot> evicted;

  /** Held while a channel's request is logged and queued (the channel pool may evict a slot). */
  final Object channelPosting = new Object();

  OwnerSlots(int maxChannels, Supplier<Set<String>> knownAgents, Consumer<OwnerSlot> evicted) {
    this.channels = new ChannelPool(maxChannels);
    this.knownAgents = knownAgents;
    this.evicted = evicted;
  }

  /** {@code name}'s slot, made on first use. */
  OwnerSlot agent(String name) {
    return agents.computeIfAbsent(name, n -> new OwnerSlot(Owner.agent(n)));
  }

  /** The channel's slot, taken in the pool (a request takes it holding {@link #channelPosting}). */
  OwnerSlot channel(Owner channel) {
    ChannelPool.Taken taken = channels.take(channel);
    if (taken.evicted() != null) {
      evicted.accept(taken.evicted());
    }
    return taken.slot();
  }

  /** The slot this process holds for {@code owner}; null when none. */
  OwnerSlot held(Owner owner) {
    return owner.isChannel() ? channels.find(owner.name()) : agents.get(owner.name());
  }

  /** A place for an edit in {@code owner}'s queue, taken as a request's is; null: no slot here. */
  SessionEditGate.Placed editPlace(Owner owner) {
    if (owner.isChannel()) {
      synchronized (channelPosting) {
        OwnerSlot slot = channels.find(owner.name());
        return slot == null ? null : new SessionEditGate.Placed(slot, slot.queue.enqueue());
      }
    }
    OwnerSlot slot =
        knownAgents.get().contains(owner.name()) ? agent(owner.name()) : agents.get(owner.name());
    if (slot == null) {
      return null;
    }
    slot.posting.lock();
    try {
      return new SessionEditGate.Placed(slot, slot.queue.enqueue());
    } finally {
      slot.posting.unlock();
    }
  }

  /** The agents' slots made so far. */
  List<OwnerSlot> agents() {
    return new ArrayList<>(agents.values());
  }

  /** The channels' slots in the pool. */
  List<OwnerSlot> channels() {
    return channels.all();
  }

  /** Every slot in the order they close at shutdown: centuriones, the legatus, then channels. */
  List<OwnerSlot> inClosingOrder() {
    List<OwnerSlot> order = new ArrayList<>();
    agents.values().stream().filter(s -> s.owner.kind() == OwnerKind.CENTURIO).forEach(order::add);
    OwnerSlot legatus = agents.get(Names.LEGATUS);
    if (legatus != null) {
      order.add(legatus);
    }
    order.addAll(channels.all());
    return order;
  }
}
