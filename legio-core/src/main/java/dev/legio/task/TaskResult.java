package dev.legio.task;

import dev.legio.pricing.Tokens;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;

/**
 * The answer of one task turn.
 *
 * @param reply the agent's answer ({@code (no answer)} when the model gave a blank one)
 * @param sessionId Legio's id of the session that ran the turn
 * @param resumed true when the turn continued the (key, agent) session's earlier conversation;
 *     false when it started a new one
 * @param taskRunId the caller's task run id, as given; null when none was
 * @param usage what the turn used and cost
 */
public record TaskResult(
    String reply, UUID sessionId, boolean resumed, String taskRunId, TaskUsage usage) {
  public TaskResult {
    Objects.requireNonNull(reply, "reply");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(usage, "usage");
  }

  /**
   * The tokens one turn was billed for and its cost.
   *
   * @param tokens uncached input, output, cache read and cache write tokens
   * @param costUsd the cost in USD; null when unknown (a model without a price)
   */
  public record TaskUsage(Tokens tokens, BigDecimal costUsd) {
    public TaskUsage {
      Objects.requireNonNull(tokens, "tokens");
    }
  }
}
