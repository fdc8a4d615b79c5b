package dev.legio.backend;

/**
 * Tokens one turn cost, as the back-end reported them.
 *
 * @param inputTokens tokens of input the model read for this turn (the whole context it was sent,
 *     for back-ends that re-read the conversation on every turn)
 * @param estimated true when the back-end reports no usage and Legio estimated it
 * @param reportedCostUsd the turn's cost in USD as the back-end itself reported it (the Claude Code
 *     CLI's {@code total_cost_usd}); null when the back-end reports none
 */
public record Usage(
    long inputTokens,
    long outputTokens,
    long cacheReadTokens,
    long cacheCreationTokens,
    boolean estimated,
    Double reportedCostUsd) {
  public static final Usage NONE = new Usage(0, 0, 0, 0, true);

  /** Usage without a cost reported by the back-end. */
  public Usage(
      long inputTokens,
      long outputTokens,
      long cacheReadTokens,
      long cacheCreationTokens,
      boolean estimated) {
    this(inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, estimated, null);
  }

  /** The same usage with the cost the back-end reported for it. */
  public Usage withReportedCostUsd(Double costUsd) {
    return new Usage(
        inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, estimated, costUsd);
  }
}
