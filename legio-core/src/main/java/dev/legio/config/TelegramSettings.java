package dev.legio.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [gateways.telegram]} section: Legio's Telegram bot, run by {@code legio serve}.
 *
 * <p>Rules: the bot token and the webhook secret come only from the environment variables named
 * here (never from the file); a section that is enabled without its token is not an error of the
 * file (Legio still starts, the gateway says which variable to set); {@link #toString()} never
 * shows either secret.
 *
 * @param enabled whether {@code legio serve} runs the bot
 * @param tokenEnv the environment variable holding the bot token from BotFather
 * @param token the token read from {@code tokenEnv}; null when unset
 * @param apiUrl the Bot API's base URL; requests go to {@code {api_url}/bot{token}/{method}}
 * @param operators Telegram user ids who speak as caesar (in a private chat with the bot)
 * @param mode {@code polling} (getUpdates) or {@code webhook} (setWebhook to {@code publicUrl})
 * @param publicUrl the HTTPS URL Telegram posts updates to in webhook mode (Legio's server, at
 *     {@code /gateways/telegram/webhook}, behind a reverse proxy)
 * @param webhookSecretEnv the environment variable holding the webhook's secret token
 * @param webhookSecret the secret read from {@code webhookSecretEnv}; null when unset
 */
public record TelegramSettings(
    boolean enabled,
    String tokenEnv,
    String token,
    String apiUrl,
    Set<Long> operators,
    String mode,
    String publicUrl,
    String webhookSecretEnv,
    String webhookSecret) {
  public static final String POLLING = "polling";
  public static final String WEBHOOK = "webhook";

  public static TelegramSettings defaults() {
    return new TelegramSettings(
        false,
        "TELEGRAM_BOT_TOKEN",
        null,
        "https://api.telegram.org",
        Set.of(),
        POLLING,
        "",
        "TELEGRAM_WEBHOOK_SECRET",
        null);
  }

  static TelegramSettings read(TomlTable gateways, Map<String, String> env) {
    TomlTable t = gateways.table("telegram");
    TelegramSettings d = defaults();
    boolean enabled = t.bool("enabled", d.enabled());
    String tokenEnv = t.string("token_env", d.tokenEnv()).strip();
    if (tokenEnv.isEmpty()) {
      throw t.error("token_env", "the name of an environment variable", "\"\"");
    }
    String apiUrl = t.string("api_url", d.apiUrl()).strip();
    if (!apiUrl.matches("(?i)https?://\\S+")) {
      throw t.error("api_url", "an http:// or https:// URL", "\"" + apiUrl + "\"");
    }
    List<Long> ids = t.integers("operators", "[123456789]");
    String mode = t.choice("mode", d.mode(), List.of(POLLING, WEBHOOK));
    String publicUrl = t.string("public_url", d.publicUrl()).strip();
    if (!publicUrl.isEmpty() && !publicUrl.matches("(?i)https?://\\S+")) {
      throw t.error("public_url", "an https:// URL, or \"\"", "\"" + publicUrl + "\"");
    }
    String secretEnv = t.string("webhook_secret_env", d.webhookSecretEnv()).strip();
    if (enabled && mode.equals(WEBHOOK) && publicUrl.isEmpty()) {
      throw t.problem(
          "mode = \"webhook\" needs public_url: the https:// address Telegram can reach, e.g."
              + " \"https://legio.example.com/gateways/telegram/webhook\"");
    }
    return new TelegramSettings(
        enabled,
        tokenEnv,
        secret(env, tokenEnv),
        apiUrl.replaceAll("/+$", ""),
        Set.copyOf(new ArrayList<>(ids)),
        mode,
        publicUrl,
        secretEnv,
        secretEnv.isEmpty() ? null : secret(env, secretEnv));
  }

  private static String secret(Map<String, String> env, String variable) {
    String value = env.get(variable);
    return value == null || value.isBlank() ? null : value.strip();
  }

  @Override
  public String toString() {
    return "TelegramSettings[enabled=%s, tokenEnv=%s, token=%s, apiUrl=%s, operators=%s, mode=%s,"
            .formatted(enabled, tokenEnv, token == null ? "unset" : "***", apiUrl, operators, mode)
        + " publicUrl=%s, webhookSecretEnv=%s, webhookSecret=%s]"
            .formatted(publicUrl, webhookSecretEnv, webhookSecret == null ? "unset" : "***");
  }
}
