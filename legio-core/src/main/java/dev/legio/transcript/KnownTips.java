package dev.legio.transcript;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The tips a transcript store left with its own appends, so that the next append to the chain need
 * not read its transcript backwards ({@link TranscriptTip}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>A remembered tip is used only while the transcript's last part is as the append that left
 *       it: the same path, the same file (its file key, the inode, where the file system has one)
 *       and the same size. Parts only grow, so whatever another thread, process or node appended
 *       since (a turn, a rewind's tombstones) changes the size; a delete and a new transcript
 *       change the file. Then the tip is read from the file again. (The one case this cannot see:
 *       another process deleting the transcript and starting it again at exactly the same size on a
 *       reused inode; this store's own deletes forget the tip.)
 *   <li>At most {@value #CAPACITY} sessions are remembered, the least recently used forgotten
 *       first: a server with many channel sessions keeps a bounded map.
 * </ul>
 */
final class KnownTips {
  static final int CAPACITY = 4096;

  /** A last part as an append left it. */
  record PartState(Path part, Object fileKey, long size) {
    static PartState of(Path part) throws IOException {
      BasicFileAttributes a = Files.readAttributes(part, BasicFileAttributes.class);
      return new PartState(part, a.fileKey(), a.size());
    }

    /** The same part after an append took it to {@code newSize}. */
    PartState grownTo(long newSize) {
      return new PartState(part, fileKey, newSize);
    }
  }

  /** A remembered tip (null: the transcript has no standing entry yet). */
  record Tip(UUID uuid) {}

  private record Known(PartState state, Tip tip) {}

  private final Map<String, Known> known =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Known> eldest) {
          return size() > CAPACITY;
        }
      };

  /** The session's tip when its last part is still {@code now}; null when it must be read. */
  synchronized Tip tip(String sessionId, PartState now) {
    Known k = known.get(sessionId);
    if (k == null) {
      return null;
    }
    if (!k.state().equals(now)) { // the same path, file key and size
      known.remove(sessionId);
      return null;
    }
    return k.tip();
  }

  /**
   * After this store appended {@code entries} after {@code tip}, leaving the last part as {@code
   * state}: remembers the new tip (the last message or summary appended, else {@code tip}), or
   * forgets it when the entries hold a tombstone, which may have deleted it.
   */
  void appended(String sessionId, PartState state, UUID tip, List<? extends NewEntry> entries) {
    UUID after = tip;
    for (NewEntry entry : entries) {
      switch (entry) {
        case NewEntry.Message m -> after = m.uuid();
        case NewEntry.Summary summary -> after = summary.uuid();
        case NewEntry.Tombstone t -> {
          forget(sessionId);
          return;
        }
        case NewEntry.AgentName a -> {
          // not part of the chain
        }
      }
    }
    remember(sessionId, state, after);
  }

  synchronized void remember(String sessionId, PartState state, UUID tip) {
    known.put(sessionId, new Known(state, new Tip(tip)));
  }

  synchronized void forget(String sessionId) {
    known.remove(sessionId);
  }

  synchronized int size() {
    return known.size();
  }
}
