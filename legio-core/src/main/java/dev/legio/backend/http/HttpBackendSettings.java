package dev.legio.backend.http;

import dev.legio.config.LegioConfig;
import java.util.Objects;

/**
 * How an {@link HttpBackend} runs its sessions.
 *
 * @param model the model used when an agent names none
 * @param contextWindows each model's context window
 * @param summariseAfterTokens a conversation that passes this many tokens is summarised before the
 *     next turn; 0: only when it passes {@link #WINDOW_FRACTION} of the model's context window
 *     (which always applies)
 * @param maxToolRounds how many times in one turn the model may call tools before the turn fails
 * @param countTokens ask the API for the exact token count of the conversation before each turn
 *     (where it can count: Anthropic), instead of the count reported after the previous turn
 * @param retry when failed requests are tried again
 */
public record HttpBackendSettings(
    String model,
    ContextWindows contextWindows,
    long summariseAfterTokens,
    int maxToolRounds,
    boolean countTokens,
    RetryPolicy retry) {

  /** The share of a model's context window at which a conversation is summarised at the latest. */
  public static final double WINDOW_FRACTION = 0.8;

  public HttpBackendSettings {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(contextWindows, "contextWindows");
    Objects.requireNonNull(retry, "retry");
    if (summariseAfterTokens < 0 || maxToolRounds < 1) {
      throw new IllegalArgumentException(
          "summariseAfterTokens must be 0 or more and maxToolRounds 1 or more");
    }
  }

  /** Tool rounds per turn at most. */
  public static final int MAX_TOOL_ROUNDS = 16;

  /** The settings a {@code [backend]} section gives, with the kind's default model. */
  public static HttpBackendSettings of(
      LegioConfig.Backend config,
      String defaultModel,
      ContextWindows windows,
      RetryPolicy.Sleeper sleeper) {
    return new HttpBackendSettings(
        config.model().isEmpty() ? defaultModel : config.model(),
        windows,
        config.summariseAfterTokens(),
        MAX_TOOL_ROUNDS,
        config.countTokens(),
        RetryPolicy.standard(config.maxRetries()).withSleeper(sleeper));
  }

  /** {@code [backend] base_url}, or {@code fallback} when it is empty. */
  public static String baseUrl(LegioConfig.Backend config, String fallback) {
    return config.baseUrl().isEmpty() ? fallback : config.baseUrl();
  }

  /** The token count at which a conversation with {@code model} is summarised. */
  public long summariseThreshold(String model) {
    long window = (long) Math.floor(contextWindows.of(model) * WINDOW_FRACTION);
    return summariseAfterTokens > 0 ? Math.min(summariseAfterTokens, window) : window;
  }
}
