package dev.legio.backend.claudecli;

import java.util.HashMap;
import java.util.Map;

/**
 * A session's CLI writes each turn to its transcript before it reports the turn's result.
 *
 * <p>Rule: every process of a session gets {@code CLAUDE_CODE_EAGER_FLUSH=1} in its environment
 * (whatever the configured environment says). Without it the CLI (2.1.x) prints a turn's {@code
 * result} first and writes the turn's entries from a queue it drains every 100 ms; a {@code -p}
 * process that exits flushes that queue in a clean-up it gives up after 2 s. So, on a loaded
 * machine, the transcript a turn's result came from could lack the turn's answer for a while, or
 * for good when the process exited (or Legio stopped it) first: a rewind or fork made right after
 * the turn copied a conversation without it, a condensed session's brief missed it, and the next
 * {@code --resume} continued a conversation without the last answer. With it, once Legio has the
 * result the transcript holds the turn.
 */
final class EagerTranscript {
  static final String VARIABLE = "CLAUDE_CODE_EAGER_FLUSH";

  private EagerTranscript() {}

  /** {@code environment} with the CLI told to write each turn before reporting it. */
  static Map<String, String> environment(Map<String, String> environment) {
    Map<String, String> out = new HashMap<>(environment);
    out.put(VARIABLE, "1");
    return Map.copyOf(out);
  }
}
