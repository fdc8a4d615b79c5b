package dev.legio.backend.http;

import dev.legio.backend.ContextWindows;
import dev.legio.config.LegioConfig;
import java.util.Objects;

/**
 * How an {@link HttpBackend} runs its sessions.
 *
 * @param model the model used when an agent names none
 * @param contextWindows each model's context window
 * @param summariseAfterTokens a conversation that passes this many tokens is compacted before the
 *     next turn at the latest ({@code [backend] summarise_after_tokens}); 0: only when it passes
 *     {@code [context] compact_threshold} of the model's context window (which always applies)
 * @param maxToolRounds how many times in one turn the model may call tools before the turn fails
 * @param countTokens ask the API for the exact token count of the conversation before each turn
 *     (where it can count: Anthropic), instead of the count reported after the previous turn
 * @param retry when failed requests are tried again
 * @param context the {@code [context]} section: auto-compact, its threshold, the messages it keeps,
 *     its circuit breaker, and the tool-result budget of each request
 */
public record HttpBackendSettings(
    String model,
    ContextWindows contextWindows,
    long summariseAfterTokens,
    int maxToolRounds,
    boolean countTokens,
    RetryPolicy retry,
    LegioConfig.Context context) {

  public HttpBackendSettings {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(contextWindows, "contextWindows");
    Objects.requireNonNull(retry, "retry");
    Objects.requireNonNull(context, "context");
    if (summariseAfterTokens < 0 || maxToolRounds < 1) {
      throw new IllegalArgumentException(
          "summariseAfterTokens must be 0 or more and maxToolRounds 1 or more");
    }
  }

  /** Tool rounds per turn at most. */
  public static final int MAX_TOOL_ROUNDS = 16;

  /**
   * The settings a {@code [backend]} and a {@code [context]} section give, with the kind's default
   * model.
   */
  public static HttpBackendSettings of(
      LegioConfig.Backend config,
      LegioConfig.Context context,
      String defaultModel,
      ContextWindows windows,
      RetryPolicy.Sleeper sleeper) {
    return new HttpBackendSettings(
        config.model().isEmpty() ? defaultModel : config.model(),
        windows,
        config.summariseAfterTokens(),
        MAX_TOOL_ROUNDS,
        config.countTokens(),
        RetryPolicy.standard(config.maxRetries()).withSleeper(sleeper),
        context);
  }

  /** {@code [backend] base_url}, or {@code fallback} when it is empty. */
  public static String baseUrl(LegioConfig.Backend config, String fallback) {
    return config.baseUrl().isEmpty() ? fallback : config.baseUrl();
  }

  /**
   * The token count past which a conversation with {@code model} is compacted: {@code
   * compact_threshold} of its window, or {@code summarise_after_tokens} when that is set and
   * smaller.
   */
  public long compactThreshold(String model) {
    long window = (long) Math.floor(contextWindows.of(model) * context.compactThreshold());
    return summariseAfterTokens > 0 ? Math.min(summariseAfterTokens, window) : window;
  }
}
