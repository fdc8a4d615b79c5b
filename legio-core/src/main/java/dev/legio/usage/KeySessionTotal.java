package dev.legio.usage;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * The ledger's turns of one task session of a session key, added up.
 *
 * @param sessionId the session
 * @param agent the agent profile it ran
 * @param firstTurnAt when its first recorded turn ended
 * @param lastTurnAt when its last recorded turn ended
 * @param total its turns, tokens and cost ({@link UsageTotal#group()} is the session id)
 */
public record KeySessionTotal(
    UUID sessionId, String agent, Instant firstTurnAt, Instant lastTurnAt, UsageTotal total) {
  public KeySessionTotal {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(total, "total");
  }
}
