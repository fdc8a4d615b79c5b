package dev.legio.config;

import java.util.HexFormat;
import java.util.Map;

/**
 * The {@code [gateways.discord]} section: the Discord gateway of {@code legio serve} (Interactions
 * over HTTP at {@code /gateways/discord/interactions}, the slash command {@code /ask}).
 *
 * <p>Rules: the bot token comes only from the environment variable the section names and {@link
 * #toString()} masks it; the application id and public key are not secrets and live in the file.
 * When enabled, {@code application_id} must be a Discord id (digits) and {@code public_key} the
 * application's Ed25519 public key as 64 hex digits, as the Developer Portal shows them.
 *
 * @param enabled whether {@code legio serve} runs the gateway
 * @param applicationId the application's id
 * @param publicKey the application's public key, 64 hex digits (lower case)
 * @param botTokenEnv the variable holding the bot token
 * @param botToken its value; null when unset
 * @param apiUrl Discord's HTTP API ({@code https://discord.com/api/v10}), without a trailing slash
 */
public record DiscordSettings(
    boolean enabled,
    String applicationId,
    String publicKey,
    String botTokenEnv,
    String botToken,
    String apiUrl) {
  public static final String DEFAULT_BOT_TOKEN_ENV = "DISCORD_BOT_TOKEN";
  public static final String DEFAULT_API_URL = "https://discord.com/api/v10";

  public static DiscordSettings defaults() {
    return new DiscordSettings(false, "", "", DEFAULT_BOT_TOKEN_ENV, null, DEFAULT_API_URL);
  }

  static DiscordSettings read(TomlTable t, Map<String, String> env) {
    DiscordSettings d = defaults();
    boolean enabled = t.bool("enabled", d.enabled());
    String applicationId = t.string("application_id", d.applicationId()).strip();
    if (!applicationId.isEmpty() && !applicationId.matches("\\d{1,25}")) {
      throw t.error(
          "application_id",
          "the application's id from the Developer Portal (digits)",
          "\"" + applicationId + "\"");
    }
    String publicKey =
        t.string("public_key", d.publicKey()).strip().toLowerCase(java.util.Locale.ROOT);
    if (!publicKey.isEmpty() && !isHexKey(publicKey)) {
      throw t.error(
          "public_key",
          "the application's public key from the Developer Portal (64 hex digits)",
          "\"" + publicKey + "\"");
    }
    if (enabled && (applicationId.isEmpty() || publicKey.isEmpty())) {
      throw t.problem(
          "enabled = true needs application_id and public_key (both on the Developer Portal's"
              + " General Information page of your application)");
    }
    String tokenEnv = GatewayKeys.variable(t, "bot_token_env", d.botTokenEnv());
    String apiUrl = GatewayKeys.url(t, "api_url", d.apiUrl());
    return new DiscordSettings(
        enabled, applicationId, publicKey, tokenEnv, GatewayKeys.secret(env, tokenEnv), apiUrl);
  }

  private static boolean isHexKey(String text) {
    if (text.length() != 64) {
      return false;
    }
    try {
      HexFormat.of().parseHex(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** These settings talking to another API (tests: a loopback fake). */
  public DiscordSettings withApiUrl(String url) {
    return new DiscordSettings(enabled, applicationId, publicKey, botTokenEnv, botToken, url);
  }

  @Override
  public String toString() {
    return "DiscordSettings[enabled=%s, applicationId=%s, publicKey=%s, botTokenEnv=%s, botToken=%s,"
            .formatted(
                enabled,
                applicationId,
                publicKey,
                botTokenEnv,
                botToken == null ? "(unset)" : "***")
        + " apiUrl=%s]".formatted(apiUrl);
  }
}
