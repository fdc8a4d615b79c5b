package dev.legio.backend.openai;

import dev.legio.backend.ContextWindows;
import dev.legio.backend.SessionTools;
import dev.legio.backend.http.ConversationStore;
import dev.legio.backend.http.HttpBackend;
import dev.legio.backend.http.HttpBackendSettings;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.ConfigException;
import dev.legio.config.LegioConfig;
import java.time.Clock;

/** Builds the {@code openai} back-end: an {@link HttpBackend} over {@link OpenAiChat}. */
public final class OpenAiBackend {
  public static final String KIND = "openai";
  public static final String DEFAULT_MODEL = "gpt-4o";

  private OpenAiBackend() {}

  /**
   * The back-end a {@code [backend]} section describes.
   *
   * @throws ConfigException when the official API is used and no API key is set
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
    String baseUrl = HttpBackendSettings.baseUrl(config, OpenAiChat.DEFAULT_BASE_URL);
    String key = config.apiKey();
    if (key == null) {
      if (baseUrl.equals(OpenAiChat.DEFAULT_BASE_URL)) {
        throw new ConfigException(
            "[backend] kind = \"openai\" needs an API key: set the environment variable "
                + LegioConfig.Backend.apiKeyVariable(config.apiKeyEnv(), KIND)
                + " ([backend] api_key_env names it), or point [backend] base_url at a server"
                + " that needs none");
      }
      key = "none"; // a local server (vLLM, llama.cpp, LM Studio) ignores it
    }
    HttpBackendSettings settings =
        HttpBackendSettings.of(
            config,
            context,
            DEFAULT_MODEL,
            ContextWindows.hosted(config.contextWindows()),
            sleeper);
    OpenAiChat chat =
        new OpenAiChat(baseUrl, key, config.connectTimeout(), config.requestTimeout());
    return new HttpBackend(
        KIND,
        "OpenAI-compatible API",
        chat,
        conversations,
        tools,
        settings,
        clock,
        config.apiKey());
  }
}
