package dev.legio.session;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The channel sessions this process holds, least recently used first.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>{@link #take} and {@link #find} count as use: the slot they return becomes the most
 *       recently used.
 *   <li>At most {@code maxSessions} slots are held: taking a new channel beyond that removes the
 *       least recently used one and hands it back as evicted (its owner closes its session).
 *   <li>Thread-safe.
 * </ul>
 */
final class ChannelPool {
  private final int maxSessions;
  private final LinkedHashMap<String, OwnerSlot> slots = new LinkedHashMap<>(16, 0.75f, true);

  ChannelPool(int maxSessions) {
    this.maxSessions = maxSessions;
  }

  /**
   * A slot taken from the pool.
   *
   * @param evicted the least recently used slot this one pushed out; null when none
   */
  record Taken(OwnerSlot slot, OwnerSlot evicted) {}

  /** The channel's slot, created (possibly evicting another) when the pool has none. */
  synchronized Taken take(Owner channel) {
    OwnerSlot slot = slots.get(channel.name());
    if (slot != null) {
      return new Taken(slot, null);
    }
    slot = new OwnerSlot(channel);
    slots.put(channel.name(), slot);
    OwnerSlot evicted = null;
    if (slots.size() > maxSessions) {
      Iterator<OwnerSlot> eldest = slots.values().iterator();
      evicted = eldest.next();
      eldest.remove();
    }
    return new Taken(slot, evicted);
  }

  /** The channel's slot if the pool holds one; null otherwise. */
  synchronized OwnerSlot find(String key) {
    return slots.get(key);
  }

  /** Every slot held, least recently used first. */
  synchronized List<OwnerSlot> all() {
    return new ArrayList<>(slots.values());
  }
}
