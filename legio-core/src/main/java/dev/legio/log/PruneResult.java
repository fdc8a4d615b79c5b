package dev.legio.log;

import java.util.List;

/**
 * What {@link MessageLog#prune} did.
 *
 * @param removed the messages removed, in log order (for archiving)
 * @param keptAsAncestors old messages kept because a newer message replies to them (directly or
 *     through its chain), so that no reply points at a missing parent
 */
public record PruneResult(List<Message> removed, long keptAsAncestors) {
  public PruneResult {
    removed = List.copyOf(removed);
  }
}
