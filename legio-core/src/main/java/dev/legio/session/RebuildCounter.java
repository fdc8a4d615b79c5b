package dev.legio.session;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the rebuilds this process made, per {@link RebuildReason} and per owner and reason, and
 * logs each with the owner's total over all its sessions. Thread-safe. The counts start at zero
 * when the process starts (the stored total of each owner's rebuilds is its session record's). Per
 * owner, the counts of the {@value #OWNERS_KEPT} owners rebuilt last are kept: channel owners
 * ({@code telegram:123}) come and go without end, and the oldest are forgotten first.
 */
final class RebuildCounter {
  static final int OWNERS_KEPT = 4096;

  private static final Logger log = LoggerFactory.getLogger(RebuildCounter.class);
  private final Map<RebuildReason, AtomicLong> counts = new EnumMap<>(RebuildReason.class);
  private final Map<String, Map<RebuildReason, AtomicLong>> byOwner =
      Collections.synchronizedMap(
          new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(
                Map.Entry<String, Map<RebuildReason, AtomicLong>> eldest) {
              return size() > OWNERS_KEPT;
            }
          });
  private final SessionEvents events;

  RebuildCounter(SessionEvents events) {
    this.events = events;
    for (RebuildReason reason : RebuildReason.values()) {
      counts.put(reason, new AtomicLong());
    }
  }

  /** Counts one rebuild of {@code owner}'s session, its {@code total}-th. */
  void count(String owner, RebuildReason reason, long total) {
    counts.get(reason).incrementAndGet();
    byOwner
        .computeIfAbsent(owner, o -> new ConcurrentHashMap<>())
        .computeIfAbsent(reason, r -> new AtomicLong())
        .incrementAndGet();
    events.rebuilt(owner, reason);
    log.info(
        "{}: session rebuilt: {} (rebuild #{} of this owner)", owner, reason.description(), total);
  }

  /** A snapshot of the counts, every reason present. */
  Map<RebuildReason, Long> snapshot() {
    Map<RebuildReason, Long> out = new EnumMap<>(RebuildReason.class);
    counts.forEach((reason, n) -> out.put(reason, n.get()));
    return out;
  }

  /** {@code owner}'s rebuilds by reason since this process started; only reasons that happened. */
  Map<RebuildReason, Long> snapshotOf(String owner) {
    Map<RebuildReason, Long> out = new EnumMap<>(RebuildReason.class);
    Map<RebuildReason, AtomicLong> mine = byOwner.get(owner);
    if (mine != null) {
      mine.forEach((reason, n) -> out.put(reason, n.get()));
    }
    return out;
  }
}
