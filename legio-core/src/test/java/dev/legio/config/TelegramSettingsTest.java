package dev.legio.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TelegramSettingsTest {
  @TempDir Path dir;

  private LegioConfig load(String toml, Map<String, String> env) throws Exception {
    Path file = dir.resolve("legio.toml");
    Files.writeString(file, toml);
    return ConfigLoader.load(file, env);
  }

  @Test
  void isOffByDefaultWithTheDocumentedDefaults() throws Exception {
    TelegramSettings t = load("", Map.of()).telegram();
    assertThat(t).isEqualTo(TelegramSettings.defaults());
    assertThat(t.enabled()).isFalse();
    assertThat(t.tokenEnv()).isEqualTo("TELEGRAM_BOT_TOKEN");
    assertThat(t.apiUrl()).isEqualTo("https://api.telegram.org");
    assertThat(t.mode()).isEqualTo("polling");
  }

  @Test
  void readsTheTokenAndSecretFromTheNamedVariablesAndNeverShowsThem() throws Exception {
    TelegramSettings t =
        load(
                """
                [gateways.telegram]
                enabled = true
                token_env = "MY_BOT"
                api_url = "http://127.0.0.1:9999/"
                operators = [123456789, 42]
                mode = "webhook"
                public_url = "https://legio.example.com/gateways/telegram/webhook"
                webhook_secret_env = "MY_HOOK"
                """,
                Map.of("MY_BOT", "123456:ABC-secret-token", "MY_HOOK", "hook-secret-value"))
            .telegram();
    assertThat(t.token()).isEqualTo("123456:ABC-secret-token");
    assertThat(t.webhookSecret()).isEqualTo("hook-secret-value");
    assertThat(t.apiUrl()).isEqualTo("http://127.0.0.1:9999");
    assertThat(t.operators()).isEqualTo(Set.of(123456789L, 42L));
    assertThat(t.mode()).isEqualTo("webhook");
    assertThat(t.toString())
        .doesNotContain("ABC-secret-token", "hook-secret-value")
        .contains("MY_BOT", "token=***");
  }

  @Test
  void anEnabledBotWithoutItsTokenIsNotAnErrorOfTheFile() throws Exception {
    TelegramSettings t = load("[gateways.telegram]\nenabled = true\n", Map.of()).telegram();
    assertThat(t.enabled()).isTrue();
    assertThat(t.token()).isNull();
  }
}
