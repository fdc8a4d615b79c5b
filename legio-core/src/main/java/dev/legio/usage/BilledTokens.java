package dev.legio.usage;

import dev.legio.backend.Usage;
import dev.legio.pricing.Tokens;

/**
 * The tokens a turn is billed for, from what its back-end reported: the Claude CLI counts cache
 * reads and writes inside its input tokens, so they are taken out of the input; the others report
 * them apart.
 */
public final class BilledTokens {
  /** The back-end whose usage counts cache reads and writes as input too. */
  static final String CACHE_IN_INPUT_KIND = "claude-cli";

  private BilledTokens() {}

  /** The tokens a turn of back-end {@code backendKind} is billed for, from its usage. */
  public static Tokens of(String backendKind, Usage usage) {
    long input = usage.inputTokens();
    if (CACHE_IN_INPUT_KIND.equals(backendKind)) {
      input = Math.max(0, input - usage.cacheReadTokens() - usage.cacheCreationTokens());
    }
    return new Tokens(
        input, usage.outputTokens(), usage.cacheReadTokens(), usage.cacheCreationTokens());
  }
}
