package dev.legio.backend.anthropic;

import dev.legio.backend.ContextWindows;
import dev.legio.backend.SessionTools;
import dev.legio.backend.http.ConversationStore;
import dev.legio.backend.http.HttpBackend;
import dev.legio.backend.http.HttpBackendSettings;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.ConfigException;
import dev.legio.config.LegioConfig;
import java.time.Clock;

/** Builds the {@code anthropic} back-end: an {@link HttpBackend} over {@link AnthropicChat}. */
public final class AnthropicBackend {
  public static final String KIND = "anthropic";
  public static final String DEFAULT_MODEL = "claude-sonnet-4-5";

  private AnthropicBackend() {}

  /**
   * The back-end a {@code [backend]} section describes.
   *
   * @throws ConfigException when no API key is set
   */
  public static HttpBackend create(
      LegioConfig.Backend config,
      ConversationStore conversations,
      SessionTools tools,
      Clock clock,
      RetryPolicy.Sleeper sleeper) {
    return create(config, LegioConfig.Context.defaults(), conversations, tools, clock, sleeper);
  }

  /**
   * The back-end a {@code [backend]} section describes, keeping its conversations within the
   * model's window as the {@code [context]} section says.
   */
  public static HttpBackend create(
      LegioConfig.Backend config,
      LegioConfig.Context context,
      ConversationStore conversations,
      SessionTools tools,
      Clock clock,
      RetryPolicy.Sleeper sleeper) {
    if (config.apiKey() == null) {
      throw new ConfigException(
          "[backend] kind = \"anthropic\" needs an API key: set the environment variable "
              + LegioConfig.Backend.apiKeyVariable(config.apiKeyEnv(), KIND)
              + " ([backend] api_key_env names it)");
    }
    HttpBackendSettings settings =
        HttpBackendSettings.of(
            config,
            context,
            DEFAULT_MODEL,
            ContextWindows.hosted(config.contextWindows()),
            sleeper);
    AnthropicChat chat =
        new AnthropicChat(
            HttpBackendSettings.baseUrl(config, AnthropicChat.DEFAULT_BASE_URL),
            config.apiKey(),
            config.connectTimeout(),
            config.requestTimeout(),
            config.maxOutputTokens());
    return new HttpBackend(
        KIND, "Anthropic API", chat, conversations, tools, settings, clock, config.apiKey());
  }
}
