package dev.legio.task;

import dev.legio.usage.KeySessionTotal;
import java.util.Objects;
import java.util.UUID;

/**
 * One session of a session key, as {@code GET /api/v1/tasks/sessions} lists it.
 *
 * @param sessionId the session
 * @param agent the agent profile it runs
 * @param record its record while Legio keeps it (the pair's current session); null once replaced or
 *     deleted
 * @param resumable true when the next task of its (key, agent) would resume it
 * @param totals its turns, tokens and cost from the usage ledger
 */
public record TaskSessionSummary(
    UUID sessionId,
    String agent,
    TaskSessionRecord record,
    boolean resumable,
    KeySessionTotal totals) {
  public TaskSessionSummary {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(totals, "totals");
  }
}
