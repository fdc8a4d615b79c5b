package dev.legio.backend.ollama;

import dev.legio.backend.ContextWindows;
import dev.legio.backend.SessionTools;
import dev.legio.backend.http.ConversationStore;
import dev.legio.backend.http.HttpBackend;
import dev.legio.backend.http.HttpBackendSettings;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.LegioConfig;
import java.time.Clock;

/** Builds the {@code ollama} back-end: an {@link HttpBackend} over {@link OllamaChat}. */
public final class OllamaBackend {
  public static final String KIND = "ollama";
  public static final String DEFAULT_MODEL = "llama3.2";

  private OllamaBackend() {}

  /** The back-end a {@code [backend]} section describes. */
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
    ContextWindows windows = ContextWindows.ollama(config.contextWindows());
    HttpBackendSettings settings =
        HttpBackendSettings.of(config, context, DEFAULT_MODEL, windows, sleeper);
    OllamaChat chat =
        new OllamaChat(
            HttpBackendSettings.baseUrl(config, OllamaChat.DEFAULT_BASE_URL),
            config.connectTimeout(),
            config.requestTimeout(),
            config.keepAlive(),
            windows);
    return new HttpBackend(
        KIND, "Ollama", chat, conversations, tools, settings, clock, config.apiKey());
  }
}
