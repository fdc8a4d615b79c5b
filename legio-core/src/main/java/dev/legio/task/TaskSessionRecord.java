package dev.legio.task;

import dev.legio.backend.Usage;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * What Legio keeps about the current session of one (session key, agent) pair.
 *
 * @param sessionKey the caller's key
 * @param agent the centurio whose profile the session runs
 * @param sessionId Legio's id of the session (the usage ledger's rows carry it)
 * @param backend the kind of back-end it runs on
 * @param backendSessionId the back-end's id of the conversation (Claude CLI session id, stored
 *     conversation id); null when the back-end has none
 * @param promptHash hex SHA-256 of the agent's prompt file when the session opened
 * @param model the model asked for; null for the back-end's default
 * @param inputTokens input tokens the back-end reported over the session's turns
 * @param outputTokens output tokens over the session's turns
 * @param turns completed turns
 * @param createdAt when the session opened
 * @param lastActiveAt when its last turn ended
 * @param expiresAt when it may no longer be resumed: last activity plus its back-end's TTL
 */
public record TaskSessionRecord(
    String sessionKey,
    String agent,
    UUID sessionId,
    String backend,
    String backendSessionId,
    String promptHash,
    String model,
    long inputTokens,
    long outputTokens,
    long turns,
    Instant createdAt,
    Instant lastActiveAt,
    Instant expiresAt) {

  public TaskSessionRecord {
    Objects.requireNonNull(sessionKey, "sessionKey");
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(promptHash, "promptHash");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastActiveAt, "lastActiveAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** True when the session may still be resumed at {@code now} (its expiry is after it). */
  public boolean liveAt(Instant now) {
    return expiresAt.isAfter(now);
  }

  /** The record after one turn that used {@code usage}, ended {@code now}. */
  TaskSessionRecord afterTurn(Usage usage, String conversation, Instant now, Instant expiry) {
    return new TaskSessionRecord(
        sessionKey,
        agent,
        sessionId,
        backend,
        conversation,
        promptHash,
        model,
        inputTokens + usage.inputTokens(),
        outputTokens + usage.outputTokens(),
        turns + 1,
        createdAt,
        now,
        expiry);
  }
}
