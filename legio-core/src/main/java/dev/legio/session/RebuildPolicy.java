package dev.legio.session;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether an owner's stored, active session may be continued, or must be rebuilt, and why. Pure: it
 * reads only what it is handed.
 *
 * <p>Rules, checked in this order (the first that holds is the reason):
 *
 * <ol>
 *   <li>{@link RebuildReason#BACKEND_CHANGED}: the session ran on another back-end kind.
 *   <li>{@link RebuildReason#PROMPT_CHANGED}: the prompt file's hash differs.
 *   <li>{@link RebuildReason#ROSTER_CHANGED}: the owner has a roster (the legatus) and its hash
 *       differs.
 *   <li>{@link RebuildReason#TOKEN_LIMIT}: the session's cumulative input tokens are above the
 *       limit (equal is still within it), unless the session is condensed instead ({@link
 *       CondensePolicy#replacesTokenLimit}: a Claude Code CLI session with condensing on, whose
 *       size is bounded by {@code condense_after_tokens}, and whose counts restart at each
 *       condensing).
 *   <li>{@link RebuildReason#IDLE}: the last activity is longer ago than the idle timeout (exactly
 *       the timeout is still within it).
 * </ol>
 *
 * None holds: the session is continued (or resumed after a restart, which the caller decides).
 */
public final class RebuildPolicy {
  private RebuildPolicy() {}

  /**
   * Why {@code stored} must be rebuilt for {@code profile} at {@code now}, with condensing off;
   * empty: continue it.
   */
  public static Optional<RebuildReason> check(
      SessionRecord stored, OwnerProfile profile, Instant now) {
    return check(stored, profile, now, 0);
  }

  /**
   * Why {@code stored} must be rebuilt for {@code profile} at {@code now}, with {@code
   * condense_after_tokens} = {@code condenseAfterTokens}; empty: continue it.
   */
  public static Optional<RebuildReason> check(
      SessionRecord stored, OwnerProfile profile, Instant now, long condenseAfterTokens) {
    SessionShape shape = profile.shape();
    SessionLimits limits = profile.limits();
    if (!stored.backend().equals(shape.backend().kind())) {
      return Optional.of(RebuildReason.BACKEND_CHANGED);
    }
    if (!stored.promptHash().equals(shape.promptHash())) {
      return Optional.of(RebuildReason.PROMPT_CHANGED);
    }
    if (shape.rosterHash() != null && !shape.rosterHash().equals(stored.rosterHash())) {
      return Optional.of(RebuildReason.ROSTER_CHANGED);
    }
    if (stored.inputTokens() > limits.maxInputTokens()
        && !CondensePolicy.replacesTokenLimit(stored.backend(), condenseAfterTokens)) {
      return Optional.of(RebuildReason.TOKEN_LIMIT);
    }
    if (Duration.between(stored.lastActiveAt(), now).compareTo(limits.idleTimeout()) > 0) {
      return Optional.of(RebuildReason.IDLE);
    }
    return Optional.empty();
  }
}
