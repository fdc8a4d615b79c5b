package dev.legio.app.gateway.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.app.gateway.webhook.PlatformCalls;
import dev.legio.backend.http.HttpFailure;
import dev.legio.backend.http.RetryPolicy;
import dev.legio.config.DiscordSettings;

/**
 * The slash command {@code /ask text:<...>} and its registration ({@code legio gateways discord
 * register}): a global chat-input command of the application, created or updated by name through
 * {@code POST {api_url}/applications/{application_id}/commands} with the bot token (Discord's
 * "Application Commands" guide), so that other commands of the application are left as they are.
 */
public final class AskCommand {
  public static final String NAME = "ask";

  private AskCommand() {}

  /** The command as Discord's API takes it. */
  static ObjectNode definition() {
    ObjectNode command =
        DiscordApi.JSON
            .createObjectNode()
            .put("name", NAME)
            .put("type", 1)
            .put("description", "Ask the legion");
    command
        .putArray("options")
        .addObject()
        .put("type", 3)
        .put("name", "text")
        .put("description", "What to ask")
        .put("required", true);
    return command;
  }

  /**
   * Registers {@code /ask}; returns the command's id.
   *
   * @throws IllegalStateException saying what to do, when it cannot (never with the token)
   */
  public static String register(DiscordSettings settings, RetryPolicy.Sleeper sleeper) {
    if (settings.applicationId().isEmpty()) {
      throw new IllegalStateException(
          "[gateways.discord] application_id is empty in legio.toml: copy the Application ID"
              + " from the Developer Portal's General Information page");
    }
    if (settings.botToken() == null) {
      throw new IllegalStateException(
          "set "
              + settings.botTokenEnv()
              + " to the bot token (Developer Portal, Bot, Reset Token) and run this again");
    }
    DiscordApi api =
        new DiscordApi(settings.apiUrl(), settings.applicationId(), settings.botToken());
    try {
      JsonNode created =
          PlatformCalls.standard(sleeper).call(() -> api.registerCommand(definition()));
      return created.path("id").asText("");
    } catch (HttpFailure f) {
      throw new IllegalStateException(
          "could not register /" + NAME + ": " + DiscordGateway.describe(f, settings), f);
    }
  }
}
