package dev.legio.app.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.LegioApp;
import dev.legio.app.cli.Main;
import dev.legio.workspace.Workspace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The composition root adds the gateways that {@code [gateways.*]} enables, and no other. */
class GatewayWiringTest {
  @TempDir Path dir;

  private Path workspace() throws Exception {
    StringWriter out = new StringWriter();
    assertThat(
            Main.run(
                new String[] {"init", "legion"},
                Map.of(),
                dir,
                new PrintWriter(out, true),
                new PrintWriter(out, true)))
        .isZero();
    return dir.resolve("legion");
  }

  @Test
  void noGatewayByDefault() throws Exception {
    try (LegioApp app = LegioApp.open(new Workspace(workspace()), Map.of(), Clock.systemUTC())) {
      assertThat(app.gateways().all()).isEmpty();
    }
  }

  @Test
  void enabledSlackAndDiscordAreAddedWithTheirWebhooks() throws Exception {
    Path root = workspace();
    Path toml = root.resolve("legio.toml");
    Files.writeString(
        toml,
        Files.readString(toml)
            .replaceFirst("(\\[gateways\\.slack\\][\\s\\S]*?)enabled = false", "$1enabled = true")
            .replaceFirst("(\\[gateways\\.discord\\][\\s\\S]*?)enabled = false", "$1enabled = true")
            .replace("application_id = \"\"", "application_id = \"123\"")
            .replace("public_key = \"\"", "public_key = \"" + "ab".repeat(32) + "\""));

    try (LegioApp app = LegioApp.open(new Workspace(root), Map.of(), Clock.systemUTC())) {
      assertThat(app.gateways().all())
          .extracting(Gateway::name)
          .containsExactly("slack", "discord");
      assertThat(app.gateways().routes())
          .containsOnlyKeys("/gateways/slack/events", "/gateways/discord/interactions");
    }
  }
}
