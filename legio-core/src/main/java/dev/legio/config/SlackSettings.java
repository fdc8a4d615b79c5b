package dev.legio.config;

import java.util.Map;

/**
 * The {@code [gateways.slack]} section: the Slack gateway of {@code legio serve} (Events API over
 * HTTP at {@code /gateways/slack/events}, replies through {@code chat.postMessage}).
 *
 * <p>Rules: the secrets come only from the environment variables the section names; they are read
 * here, never written to the file, and {@link #toString()} masks them. The section is read whether
 * or not it is enabled, so a misspelt key is reported either way.
 *
 * @param enabled whether {@code legio serve} runs the gateway
 * @param signingSecretEnv the variable holding the app's signing secret
 * @param signingSecret its value; null when unset
 * @param botTokenEnv the variable holding the bot token ({@code xoxb-...})
 * @param botToken its value; null when unset
 * @param apiUrl Slack's Web API ({@code https://slack.com/api}), without a trailing slash
 */
public record SlackSettings(
    boolean enabled,
    String signingSecretEnv,
    String signingSecret,
    String botTokenEnv,
    String botToken,
    String apiUrl) {
  public static final String DEFAULT_SIGNING_SECRET_ENV = "SLACK_SIGNING_SECRET";
  public static final String DEFAULT_BOT_TOKEN_ENV = "SLACK_BOT_TOKEN";
  public static final String DEFAULT_API_URL = "https://slack.com/api";

  public static SlackSettings defaults() {
    return new SlackSettings(
        false, DEFAULT_SIGNING_SECRET_ENV, null, DEFAULT_BOT_TOKEN_ENV, null, DEFAULT_API_URL);
  }

  static SlackSettings read(TomlTable t, Map<String, String> env) {
    SlackSettings d = defaults();
    boolean enabled = t.bool("enabled", d.enabled());
    String secretEnv = GatewayKeys.variable(t, "signing_secret_env", d.signingSecretEnv());
    String tokenEnv = GatewayKeys.variable(t, "bot_token_env", d.botTokenEnv());
    String apiUrl = GatewayKeys.url(t, "api_url", d.apiUrl());
    return new SlackSettings(
        enabled,
        secretEnv,
        GatewayKeys.secret(env, secretEnv),
        tokenEnv,
        GatewayKeys.secret(env, tokenEnv),
        apiUrl);
  }

  /** These settings talking to another Web API (tests: a loopback fake). */
  public SlackSettings withApiUrl(String url) {
    return new SlackSettings(enabled, signingSecretEnv, signingSecret, botTokenEnv, botToken, url);
  }

  @Override
  public String toString() {
    return "SlackSettings[enabled=%s, signingSecretEnv=%s, signingSecret=%s, botTokenEnv=%s,"
            .formatted(
                enabled, signingSecretEnv, signingSecret == null ? "(unset)" : "***", botTokenEnv)
        + " botToken=%s, apiUrl=%s]".formatted(botToken == null ? "(unset)" : "***", apiUrl);
  }
}
