package dev.legio.app.gateway.discord;

import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.process.LegioProcess;
import dev.legio.app.process.Workspaces;
import dev.legio.testing.FakeMessagesApi;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code legio serve} killed ({@code SIGKILL}) while an {@code /ask}'s turn is at the model:
 * Discord had its deferred response and never delivers the interaction again, and the interaction's
 * token died with the process; the next {@code legio serve} on the same castra answers the {@code
 * /ask} in its channel, once, logging the request once.
 */
class DiscordKillTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final String CHANNEL = "987654321";

  @TempDir Path dir;
  private final KeyPair keys = DiscordRequests.generate();
  private FakeMessagesApi model;
  private FakeDiscord discord;
  private Path ws;
  private Map<String, String> env;

  @BeforeEach
  void workspaceWithDiscordOnAModel() throws Exception {
    model = FakeMessagesApi.start();
    discord = new FakeDiscord();
    ws = Workspaces.servingOnModel(dir, "legion", model.baseUrl());
    Path toml = ws.resolve("legio.toml");
    String text = Files.readString(toml);
    int section = text.indexOf("[gateways.discord]");
    String discordSection =
        DiscordRequests.configure(
                text.substring(section), discord.apiUrl(), DiscordRequests.publicKeyHex(keys))
            .replaceFirst("enabled = false", "enabled = true");
    Files.writeString(toml, text.substring(0, section) + discordSection);
    env =
        Map.of(
            "ANTHROPIC_API_KEY", "test-key-discord-0000", "DISCORD_BOT_TOKEN", FakeDiscord.TOKEN);
  }

  @AfterEach
  void stopFakes() {
    model.close();
    discord.close();
  }

  private long messagesRequests() {
    return model.requests().stream().filter(FakeMessagesApi.Request::isMessages).count();
  }

  private long count(String sql) {
    return Workspaces.count(ws, sql);
  }

  @Test
  void anAskWhoseTurnWasRunningWhenServeWasKilledIsAnsweredInItsChannelByTheNextServeOnce()
      throws Exception {
    model.enqueue(FakeMessagesApi.Reply.hang());
    String ask = DiscordRequests.ask("int-killed", "tok-killed", CHANNEL, "hold the bridge");
    try (LegioProcess first = LegioProcess.start(dir, env, "--castra", ws.toString(), "serve")) {
      URI api = first.servingUrl(LIMIT);
      HttpResponse<String> deferred =
          LegioProcess.postJson(
              api.resolve(DiscordGateway.PATH),
              ask,
              DiscordRequests.signed(keys.getPrivate(), ask));
      assertThat(deferred.statusCode()).as(deferred.body()).isEqualTo(200);
      assertThat(deferred.body()).contains("\"type\":5");
      first.await("the turn at the model", LIMIT, () -> messagesRequests() == 1);
      first.signal("KILL");
      first.awaitExit(LIMIT);
    }
    assertThat(discord.messages).isEmpty();
    assertThat(count("SELECT count(*) FROM gateway_inbox")).as("kept across the kill").isOne();
    try (var files = Files.walk(ws)) {
      assertThat(files.filter(Files::isRegularFile))
          .as("the interaction's token is written to no file (the database, its WAL, logs)")
          .allSatisfy(
              f ->
                  assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
                      .as(f.toString())
                      .doesNotContain("tok-killed"));
    }

    model.enqueue(FakeMessagesApi.Reply.text("The bridge holds."));
    try (LegioProcess second = LegioProcess.start(dir, env, "--castra", ws.toString(), "serve")) {
      second.servingUrl(LIMIT);
      FakeDiscord.Call intro = discord.nextMessage();
      assertThat(intro.path()).isEqualTo("/channels/" + CHANNEL + "/messages");
      assertThat(intro.body().path("content").asText())
          .startsWith("<@42>, here is the answer")
          .contains("> hold the bridge");
      assertThat(discord.nextMessage().body().path("content").asText())
          .isEqualTo("The bridge holds.");
      second.await(
          "the /ask forgotten", LIMIT, () -> count("SELECT count(*) FROM gateway_inbox") == 0);
      assertThat(count("SELECT count(*) FROM nuntii WHERE sender = 'discord:" + CHANNEL + "'"))
          .as("the request logged once")
          .isOne();
      assertThat(discord.messageWithin(Duration.ofMillis(500))).as("answered once").isNull();
      second.signal("TERM");
      second.awaitExit(LIMIT);
    }
  }
}
