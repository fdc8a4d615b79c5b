package dev.legio.app.gateway.discord;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code legio gateways discord register}, against a loopback fake of Discord's HTTP API. */
class RegisterCommandTest {
  @TempDir Path dir;
  private FakeDiscord discord;
  private Path root;

  @BeforeEach
  void workspace() throws Exception {
    discord = new FakeDiscord();
    assertThat(run(Map.of(), "init", "legion").code()).isZero();
    root = dir.resolve("legion");
    Path toml = root.resolve("legio.toml");
    Files.writeString(
        toml, DiscordRequests.configure(Files.readString(toml), discord.apiUrl(), "ab".repeat(32)));
  }

  @AfterEach
  void stop() {
    discord.close();
  }

  private record Run(int code, String out, String err) {}

  private Run run(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, env, dir, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void registersAskWithTheBotTokenAndATextOption() {
    Run run =
        run(
            Map.of("DISCORD_BOT_TOKEN", FakeDiscord.TOKEN),
            "--castra",
            root.toString(),
            "gateways",
            "discord",
            "register");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("Registered /ask (command 555)")
        .contains("/gateways/discord/interactions");
    FakeDiscord.Call call = discord.calls.get(0);
    assertThat(call.method()).isEqualTo("POST");
    assertThat(call.path()).isEqualTo("/applications/" + FakeDiscord.APPLICATION + "/commands");
    assertThat(call.authorization()).isEqualTo("Bot " + FakeDiscord.TOKEN);
    JsonNode command = call.body();
    assertThat(command.path("name").asText()).isEqualTo("ask");
    assertThat(command.path("type").asInt()).isEqualTo(1);
    JsonNode option = command.path("options").get(0);
    assertThat(option.path("name").asText()).isEqualTo("text");
    assertThat(option.path("type").asInt()).isEqualTo(3);
    assertThat(option.path("required").asBoolean()).isTrue();
  }

  @Test
  void aRefusedTokenFailsWithAnActionableMessageWithoutTheToken() {
    String wrong = "MTk4NjIyNDgzNDcxOTI1MjQ4.wrong-token-value";
    Run run =
        run(
            Map.of("DISCORD_BOT_TOKEN", wrong),
            "--castra",
            root.toString(),
            "gateways",
            "discord",
            "register");

    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err())
        .contains("could not register /ask")
        .contains("refuses the bot token in DISCORD_BOT_TOKEN")
        .doesNotContain(wrong);
  }

  @Test
  void withoutATokenItSaysWhichVariableToSet() {
    Run run = run(Map.of(), "--castra", root.toString(), "gateways", "discord", "register");

    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err()).contains("set DISCORD_BOT_TOKEN");
    assertThat(discord.calls).isEmpty();
  }
}
