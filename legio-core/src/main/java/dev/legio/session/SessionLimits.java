package dev.legio.session;

import java.time.Duration;

/**
 * The limits of one owner's session: how much history a fresh one receives, and when it is rebuilt.
 *
 * @param historyWindow how many recent messages a fresh session receives (and at most how many new
 *     ones a later turn carries)
 * @param maxInputTokens cumulative input tokens past which the session is rebuilt before the next
 *     turn
 * @param idleTimeout a session unused for longer is rebuilt at its next turn
 */
public record SessionLimits(int historyWindow, long maxInputTokens, Duration idleTimeout) {}
