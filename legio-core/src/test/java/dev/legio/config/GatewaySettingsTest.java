package dev.legio.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code [gateways.slack]} and {@code [gateways.discord]}: defaults, secrets, checks. */
class GatewaySettingsTest {
  @TempDir Path dir;

  private LegioConfig load(String toml, Map<String, String> env) throws Exception {
    Path file = dir.resolve("legio.toml");
    Files.writeString(file, toml);
    return ConfigLoader.load(file, env);
  }

  @Test
  void bothAreOffByDefaultWithTheUsualVariablesAndUrls() throws Exception {
    LegioConfig config = load("", Map.of());

    assertThat(config.slack()).isEqualTo(SlackSettings.defaults());
    assertThat(config.slack().apiUrl()).isEqualTo("https://slack.com/api");
    assertThat(config.slack().botTokenEnv()).isEqualTo("SLACK_BOT_TOKEN");
    assertThat(config.discord()).isEqualTo(DiscordSettings.defaults());
    assertThat(config.discord().apiUrl()).isEqualTo("https://discord.com/api/v10");
  }

  @Test
  void secretsComeFromTheNamedVariablesAndAreNeverShown() throws Exception {
    LegioConfig config =
        load(
            """
            [gateways.slack]
            enabled = true
            bot_token_env = "MY_SLACK_TOKEN"
            api_url = "http://127.0.0.1:9000/api/"
            [gateways.discord]
            enabled = true
            application_id = "123456789012345678"
            public_key = "%s"
            """
                .formatted("AB".repeat(32)),
            Map.of(
                "MY_SLACK_TOKEN", "xoxb-secret-1",
                "SLACK_SIGNING_SECRET", "signing-secret-2",
                "DISCORD_BOT_TOKEN", "discord-secret-3"));

    assertThat(config.slack().botToken()).isEqualTo("xoxb-secret-1");
    assertThat(config.slack().signingSecret()).isEqualTo("signing-secret-2");
    assertThat(config.slack().apiUrl()).isEqualTo("http://127.0.0.1:9000/api");
    assertThat(config.discord().botToken()).isEqualTo("discord-secret-3");
    assertThat(config.discord().publicKey()).isEqualTo("ab".repeat(32));
    assertThat(config.toString())
        .doesNotContain("xoxb-secret-1")
        .doesNotContain("signing-secret-2")
        .doesNotContain("discord-secret-3");
  }

  @Test
  void badValuesNameTheKeyAndWhatToPutThere() {
    assertThatThrownBy(() -> load("[gateways.discord]\npublic_key = \"xyz\"", Map.of()))
        .hasMessageEndingWith(
            "[gateways.discord] public_key: expected the application's public key from the"
                + " Developer Portal (64 hex digits), got \"xyz\"");
    assertThatThrownBy(() -> load("[gateways.discord]\napplication_id = \"my-app\"", Map.of()))
        .hasMessageContaining("[gateways.discord] application_id: expected the application's id");
    assertThatThrownBy(() -> load("[gateways.discord]\nenabled = true", Map.of()))
        .hasMessageContaining("enabled = true needs application_id and public_key");
    assertThatThrownBy(() -> load("[gateways.slack]\napi_url = \"slack.com\"", Map.of()))
        .hasMessageContaining("[gateways.slack] api_url: expected an http:// or https:// URL");
    assertThatThrownBy(() -> load("[gateways.slack]\nbot_token_env = \"xoxb-1-secret\"", Map.of()))
        .hasMessageContaining(
            "[gateways.slack] bot_token_env: expected the name of an environment variable")
        .hasMessageNotContaining("xoxb-1-secret");
    assertThatThrownBy(() -> load("[gateways.slack]\nenabeld = true", Map.of()))
        .hasMessageContaining(
            "[gateways.slack] unknown key 'enabeld'; known keys here: api_url,"
                + " bot_token_env, enabled, signing_secret_env");
  }
}
