package dev.legio.session;

import dev.legio.backend.ContextUse;
import dev.legio.backend.claudecli.ClaudeCliBackend;
import java.util.Set;

/**
 * Whether a long Claude Code CLI session is condensed before its next turn ({@code [sessions]
 * condense_after_tokens}). Pure: it reads only what it is handed. {@link SessionCondenser} does the
 * condensing.
 *
 * <p>Rule: a session is condensed when all of these hold:
 *
 * <ol>
 *   <li>the threshold is on ({@code condense_after_tokens} above 0; {@code 0} turns condensing
 *       off);
 *   <li>the session runs on a back-end that keeps the conversation itself and does not compact it
 *       for Legio ({@link #KINDS}: the Claude Code CLI); the HTTP back-ends compact their own
 *       conversations ({@code dev.legio.backend.http.AutoCompactor}) and are never condensed;
 *   <li>the session has a back-end conversation ({@link SessionRecord#backendSessionId()});
 *   <li>the session's tokens, the size of its conversation after its last turn ({@link
 *       ContextUse#tokens()}: what that turn's last request read and wrote, which every later turn
 *       reads again), are above the threshold (equal is still within it). A session no turn has
 *       reported a size for (a fresh or just condensed one) is not condensed.
 * </ol>
 *
 * <p>A session condensing applies to is never rebuilt for its cumulative input tokens ({@link
 * #replacesTokenLimit}, {@link RebuildPolicy}): condensing bounds what each of its turns reads, and
 * a rebuild would lose the conversation a brief keeps.
 */
public final class CondensePolicy {
  /** The back-end kinds whose sessions are condensed. */
  public static final Set<String> KINDS = Set.of(ClaudeCliBackend.KIND);

  private CondensePolicy() {}

  /**
   * True when sessions of {@code backendKind} are condensed (condensing on, a condensed kind), so
   * that {@code max_input_tokens} does not rebuild them.
   */
  public static boolean replacesTokenLimit(String backendKind, long condenseAfterTokens) {
    return condenseAfterTokens > 0 && KINDS.contains(backendKind);
  }

  /** True when {@code record} is to be condensed before its next turn. */
  public static boolean due(SessionRecord record, long condenseAfterTokens) {
    if (condenseAfterTokens <= 0 || !KINDS.contains(record.backend())) {
      return false;
    }
    ContextUse context = record.context();
    return record.backendSessionId() != null
        && context != null
        && context.tokens() > condenseAfterTokens;
  }
}
