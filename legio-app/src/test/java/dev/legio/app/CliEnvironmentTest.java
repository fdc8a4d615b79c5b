package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.config.ConfigLoader;
import dev.legio.config.LegioConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliEnvironmentTest {
  @TempDir Path dir;

  @Test
  void theGatewaysSecretsAreWithheldByTheNamesTheConfigurationGivesThem() throws Exception {
    Path toml = dir.resolve("legio.toml");
    Files.writeString(toml, "[gateways.slack]\nbot_token_env = \"OUR_SLACK_TOKEN\"\n");
    LegioConfig config = ConfigLoader.load(toml, Map.of());

    assertThat(CliEnvironment.withheld(config))
        .contains("OUR_SLACK_TOKEN", "SLACK_SIGNING_SECRET", "DISCORD_BOT_TOKEN")
        .contains(config.telegram().tokenEnv(), config.telegram().webhookSecretEnv())
        .doesNotContain("SLACK_BOT_TOKEN", "ANTHROPIC_API_KEY", "LEGIO_DB_PASSWORD");
  }
}
