package dev.legio.task;

import dev.legio.usage.KeySessionTotal;
import dev.legio.usage.UsageLedger;
import dev.legio.usage.UsageTotal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The sessions of one session key, as {@code GET /api/v1/tasks/sessions} lists them.
 *
 * <p>Rule: every session the usage ledger has turns of comes first (oldest first) with its totals,
 * then each session recorded in {@code task_sessions} that has no turn yet, with zero totals; a
 * session is {@code resumable} when its record is the (key, agent) one a task would resume now.
 */
final class TaskSessionSummaries {
  private TaskSessionSummaries() {}

  static List<TaskSessionSummary> of(
      String key, TaskSessionStore records, UsageLedger ledger, Instant now) {
    Map<UUID, TaskSessionRecord> current = new LinkedHashMap<>();
    for (TaskSessionRecord r : records.forKey(key)) {
      current.put(r.sessionId(), r);
    }
    List<TaskSessionSummary> out = new ArrayList<>();
    for (KeySessionTotal t : ledger.sessionsOfKey(key)) {
      TaskSessionRecord r = current.remove(t.sessionId());
      out.add(new TaskSessionSummary(t.sessionId(), t.agent(), r, r != null && r.liveAt(now), t));
    }
    for (TaskSessionRecord r : current.values()) {
      out.add(
          new TaskSessionSummary(
              r.sessionId(),
              r.agent(),
              r,
              r.liveAt(now),
              new KeySessionTotal(
                  r.sessionId(),
                  r.agent(),
                  r.createdAt(),
                  r.lastActiveAt(),
                  UsageTotal.empty(r.sessionId().toString()))));
    }
    return out;
  }
}
