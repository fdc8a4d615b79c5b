package dev.legio.backend;

/**
 * Tokens one turn cost, as the back-end reported them.
 *
 * @param inputTokens tokens of input the model read for this turn (the whole context it was sent,
 *     for back-ends that re-read the conversation on every turn)
 * @param estimated true when the back-end reports no usage and Legio estimated it
 */
public record Usage(
    long inputTokens,
    long outputTokens,
    long cacheReadTokens,
    long cacheCreationTokens,
    boolean estimated) {
  public static final Usage NONE = new Usage(0, 0, 0, 0, true);
}
