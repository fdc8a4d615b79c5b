package dev.legio.pricing;

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

  public Tokens plus(Tokens other) {
    return new Tokens(
        input + other.input,
        output + other.output,
        cacheRead + other.cacheRead,
        cacheWrite + other.cacheWrite);
  }
}
