package dev.legio.usage;

import dev.legio.backend.Usage;

/**
 * The tokens one turn is billed for, each kind apart.
 *
 * <p>Rule ({@link #billed}): {@code input} is uncached input only. Back-ends report input
 * differently: the Anthropic and OpenAI APIs already give uncached input apart from cache reads and
 * writes, but the Claude Code CLI's usage ({@code claude-cli}) counts every token the model read,
 * so its cache reads and writes are taken out of its input here.
 *
 * @param input uncached input tokens
 * @param output output tokens
 * @param cacheRead input tokens read from the prompt cache
 * @param cacheWrite input tokens written to the prompt cache
 */
public record Tokens(long input, long output, long cacheRead, long cacheWrite) {
  public static final Tokens ZERO = new Tokens(0, 0, 0, 0);

  /** The back-end whose usage counts cache reads and writes as input too. */
  static final String CACHE_IN_INPUT_KIND = "claude-cli";

  public Tokens {
    if (input < 0 || output < 0 || cacheRead < 0 || cacheWrite < 0) {
      throw new IllegalArgumentException(
          "token counts cannot be negative: "
              + input
              + ", "
              + output
              + ", "
              + cacheRead
              + ", "
              + cacheWrite);
    }
  }

  /** The tokens a turn of back-end {@code backendKind} is billed for, from its usage. */
  public static Tokens billed(String backendKind, Usage usage) {
    long input = usage.inputTokens();
    if (CACHE_IN_INPUT_KIND.equals(backendKind)) {
      input = Math.max(0, input - usage.cacheReadTokens() - usage.cacheCreationTokens());
    }
    return new Tokens(
        input, usage.outputTokens(), usage.cacheReadTokens(), usage.cacheCreationTokens());
  }

  public Tokens plus(Tokens other) {
    return new Tokens(
        input + other.input,
        output + other.output,
        cacheRead + other.cacheRead,
        cacheWrite + other.cacheWrite);
  }
}
