package dev.legio.app.gateway.discord;

import static dev.legio.app.gateway.GatewayFixture.await;
import static dev.legio.app.gateway.discord.DiscordRequests.ask;
import static dev.legio.app.gateway.discord.DiscordRequests.configure;
import static dev.legio.app.gateway.discord.DiscordRequests.gateway;
import static dev.legio.app.gateway.discord.DiscordRequests.generate;
import static dev.legio.app.gateway.discord.DiscordRequests.publicKeyHex;
import static dev.legio.app.gateway.discord.DiscordRequests.signed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.legio.app.gateway.GatewayFixture;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.session.LeaseHolder;
import dev.legio.store.gateway.GatewayInbox;
import dev.legio.testing.LogCapture;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code /ask} kept in Legio's database until it is answered: answered with the interaction's
 * token by the process that took it in, in its channel by any other (after a kill, a drain that cut
 * its turn, a node lost) or when Discord refuses the token; against the loopback fake of Discord.
 */
class DiscordInboxTest {
  private static final String CHANNEL = "987654321";

  @TempDir Path dir;
  private final KeyPair keys = generate();
  private FakeDiscord discord;
  private GatewayFixture legio;
  private final CountDownLatch turnRunning = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void stop() {
    release.countDown();
    if (legio != null) {
      legio.close();
    }
    if (discord != null) {
      discord.close();
    }
  }

  private void start(Map<String, String> env, int graceSeconds) throws Exception {
    discord = new FakeDiscord();
    legio =
        new GatewayFixture(
            dir,
            env,
            toml ->
                configure(toml, discord.apiUrl(), publicKeyHex(keys))
                    .replace(
                        "shutdown_grace_seconds = 30", "shutdown_grace_seconds = " + graceSeconds),
            gateway(
                new ReplyOutbox.Backoff(Duration.ofMillis(100), Duration.ofMillis(400)),
                new GatewayFixture.Sleeps()));
    legio.replies =
        GatewayFixture.slowOnesWaitFor(
            turnRunning,
            release,
            message -> message.contains("news?") ? "The bridge holds." : null);
  }

  private void start() throws Exception {
    start(Map.of("DISCORD_BOT_TOKEN", FakeDiscord.TOKEN), 30);
    await(() -> legio.health("discord").state() == GatewayHealth.State.CONNECTED);
  }

  private HttpResponse<String> deliver(String body) throws Exception {
    return legio.post(DiscordGateway.PATH, body, signed(keys.getPrivate(), body));
  }

  private GatewayInbox inbox() {
    return legio.app.store().gatewayInbox();
  }

  /** An /ask another process took in, claimed until {@code claimedUntil}. */
  private void orphan(String id, String channel, Instant claimedUntil) {
    orphan(id, channel, Instant.now(), claimedUntil);
  }

  /** An /ask another process took in at {@code receivedAt}, claimed until {@code claimedUntil}. */
  private void orphan(String id, String channel, Instant receivedAt, Instant claimedUntil) {
    orphan(id, channel, "news?", receivedAt, claimedUntil);
  }

  /** The /ask {@code question} of user 42, which another process took in. */
  private void orphan(
      String id, String channel, String question, Instant receivedAt, Instant claimedUntil) {
    inbox()
        .takeIn(
            new GatewayInbox.Message(
                "discord", id, "discord:" + channel, channel, null, "42", "Ada", question),
            List.of(id),
            Duration.ofHours(1),
            new GatewayInbox.Claimant("inbox-of-" + id, new LeaseHolder("node-" + id, 42)),
            receivedAt,
            claimedUntil);
  }

  private static String content(FakeDiscord.Call call) {
    return call.body().path("content").asText();
  }

  @Test
  void anAskIsKeptWhileItsAnswerIsOwedAndForgottenOnceDiscordTookIt() throws Exception {
    start();
    int port = java.net.URI.create(discord.apiUrl()).getPort();
    discord.close();

    deliver(ask("int-1", "tok-1", CHANNEL, "news?"));

    await(() -> legio.health("discord").state() == GatewayHealth.State.WAITING);
    assertThat(inbox().kept("discord"))
        .as("kept while its answer is owed")
        .extracting(k -> k.message().messageKey())
        .containsExactly("int-1");
    assertThat(legio.app.store().gatewayState().pending("discord"))
        .as("a reply holding the token is not written to the database")
        .isEmpty();

    discord = new FakeDiscord(port);
    FakeDiscord.Call edit = discord.nextMessage();
    assertThat(edit.path()).endsWith("/tok-1/messages/@original");
    assertThat(content(edit)).isEqualTo("The bridge holds.");
    await(() -> inbox().kept("discord").isEmpty());
  }

  @Test
  void anAskAnotherProcessTookInIsAnsweredInItsChannelAfterALineNamingTheAsker() throws Exception {
    start();

    orphan("int-9", CHANNEL, Instant.now().minusSeconds(1));

    FakeDiscord.Call intro = discord.nextMessage();
    FakeDiscord.Call answer = discord.nextMessage();
    assertThat(List.of(intro, answer))
        .allSatisfy(
            c -> {
              assertThat(c.method()).isEqualTo("POST");
              assertThat(c.path()).isEqualTo("/channels/" + CHANNEL + "/messages");
              assertThat(c.authorization()).isEqualTo("Bot " + FakeDiscord.TOKEN);
            });
    assertThat(content(intro)).startsWith("<@42>, here is the answer").endsWith("\n> news?");
    assertThat(intro.allowedMentions().toString())
        .as("the intro pings the asker alone")
        .isEqualTo("{\"parse\":[],\"users\":[\"42\"]}");
    assertThat(answer.allowedMentions().toString()).isEqualTo("{\"parse\":[]}");
    assertThat(content(answer)).isEqualTo("The bridge holds.");
    await(() -> inbox().kept("discord").isEmpty());
    await(() -> legio.app.store().gatewayState().pending("discord").isEmpty());
    assertThat(discord.messageWithin(Duration.ofMillis(500))).as("answered once").isNull();
  }

  @Test
  void aTokenDiscordRefusesDoesNotLoseTheAnswerItGoesToTheChannel() throws Exception {
    start();
    discord.expiredTokens.add("tok-1");

    deliver(ask("int-1", "tok-1", CHANNEL, "news?"));

    FakeDiscord.Call intro = discord.nextMessage();
    FakeDiscord.Call answer = discord.nextMessage();
    assertThat(intro.path()).isEqualTo("/channels/" + CHANNEL + "/messages");
    assertThat(content(intro)).startsWith("<@42>, here is the answer");
    assertThat(intro.allowedMentions().toString())
        .as("the intro pings the asker alone")
        .isEqualTo("{\"parse\":[],\"users\":[\"42\"]}");
    assertThat(content(answer)).isEqualTo("The bridge holds.");
    assertThat(answer.allowedMentions().toString()).isEqualTo("{\"parse\":[]}");
    assertThat(discord.webhookCalls()).as("the token was tried first").isEqualTo(1);
    await(() -> inbox().kept("discord").isEmpty());
  }

  @Test
  void anAnswerInTheChannelPingsNoOneWhateverItNamesOnlyTheIntroPingsTheAsker() throws Exception {
    start();
    String hostile = "@everyone @here <@&1234> <@7> <@!8> **pinged**\n";
    legio.replies = message -> hostile + "x".repeat(DiscordGateway.MAX_CHARS) + " <@7> again";

    orphan("int-9", CHANNEL, "<@7> @everyone news?", Instant.now(), Instant.now().minusSeconds(1));

    FakeDiscord.Call intro = discord.nextMessage();
    List<FakeDiscord.Call> parts = new java.util.ArrayList<>(List.of(discord.nextMessage()));
    while (!content(parts.getLast()).endsWith("<@7> again")) {
      parts.add(discord.nextMessage());
    }
    assertThat(content(intro)).startsWith("<@42>, here is the answer").contains("<@7> @everyone");
    assertThat(intro.pingedUsers())
        .as("the asker, not whom the question names")
        .containsExactly("42");
    assertThat(intro.allowedMentions().path("parse")).isEmpty();
    assertThat(intro.allowedMentions().has("roles")).isFalse();
    assertThat(content(parts.getFirst())).isEqualTo(hostile.strip());
    assertThat(parts).as("the answer, split").hasSizeGreaterThan(1);
    assertThat(parts)
        .as("the model's text pings no one, in every part")
        .allSatisfy(c -> assertThat(c.allowedMentions().toString()).isEqualTo("{\"parse\":[]}"));
  }

  @Test
  void anAnswerToAChannelTheBotMayNotPostInIsDroppedWithAWarningAndTheNextStillGoes()
      throws Exception {
    start();
    discord.closedChannels.add("111");

    try (LogCapture logged = new LogCapture()) {
      orphan("int-8", "111", Instant.now().minusSeconds(1));
      orphan("int-9", CHANNEL, Instant.now().minusSeconds(1));

      FakeDiscord.Call next = discord.nextMessage();
      assertThat(next.path()).isEqualTo("/channels/" + CHANNEL + "/messages");
      await(() -> logged.warningsAndErrors().contains("may not post in this channel"));
      assertThat(logged.warningsAndErrors()).contains("Send Messages");
    }
    await(() -> inbox().kept("discord").isEmpty());
  }

  @Test
  void withoutABotTokenNoOtherProcesssAskIsTakenOver() throws Exception {
    start(Map.of(), 30);

    orphan("int-9", CHANNEL, Instant.now().minusSeconds(1));

    assertThat(discord.messageWithin(Duration.ofMillis(2_500))).isNull();
    assertThat(inbox().kept("discord")).hasSize(1);
    assertThat(legio.app.messageLog().size()).as("no turn run").isZero();
  }

  @Test
  void aTurnTheShutdownCutSaysTheAnswerFollowsWhichTheNextProcessPostsInTheChannelOnce()
      throws Exception {
    start(Map.of("DISCORD_BOT_TOKEN", FakeDiscord.TOKEN), 1);
    await(() -> legio.health("discord").state() == GatewayHealth.State.CONNECTED);
    assertThat(deliver(ask("int-1", "tok-1", CHANNEL, "a slow one")).statusCode()).isEqualTo(200);
    assertThat(turnRunning.await(30, TimeUnit.SECONDS)).isTrue();

    legio.server.close(); // never released: the turn outlasts the 1 s grace

    FakeDiscord.Call note = discord.nextMessage();
    assertThat(note.path()).endsWith("/tok-1/messages/@original");
    assertThat(content(note))
        .as("\"thinking...\" gives way to a note, not the shutdown's own naming the channel key")
        .isEqualTo(InteractionAnswers.CUT_ANSWER_FOLLOWS);
    assertThat(inbox().kept("discord")).as("the /ask stays for the next process").hasSize(1);

    release.countDown(); // the next process's model answers at once
    legio.restart();

    FakeDiscord.Call intro = discord.nextMessage();
    assertThat(intro.path()).isEqualTo("/channels/" + CHANNEL + "/messages");
    assertThat(content(intro)).contains("> a slow one");
    assertThat(content(discord.nextMessage())).isEqualTo("the model's answer");
    await(() -> inbox().kept("discord").isEmpty());
    assertThat(discord.messageWithin(Duration.ofMillis(500))).as("answered once").isNull();
    assertThat(legio.app.messageLog().history(100))
        .filteredOn(m -> m.sender().equals("discord:" + CHANNEL))
        .as("the request logged once")
        .hasSize(1);
  }

  @Test
  void withoutABotTokenATurnTheShutdownCutAsksToAskAgainAndIsForgotten() throws Exception {
    start(Map.of(), 1);
    assertThat(deliver(ask("int-1", "tok-1", CHANNEL, "a slow one")).statusCode()).isEqualTo(200);
    assertThat(turnRunning.await(30, TimeUnit.SECONDS)).isTrue();

    legio.server.close(); // never released: the turn outlasts the 1 s grace

    FakeDiscord.Call note = discord.nextMessage();
    assertThat(note.path()).endsWith("/tok-1/messages/@original");
    assertThat(content(note)).isEqualTo(InteractionAnswers.CUT_ASK_AGAIN);
    await(() -> inbox().kept("discord").isEmpty());
  }

  @Test
  void withoutABotTokenACutAskIsForgottenEvenWhenDiscordRefusesTheNote() throws Exception {
    start(Map.of(), 1);
    assertThat(deliver(ask("int-1", "tok-1", CHANNEL, "a slow one")).statusCode()).isEqualTo(200);
    assertThat(turnRunning.await(30, TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < 100; i++) {
      discord.failures.add(new FakeDiscord.Failure(503, null));
    }

    legio.server.close(); // never released: the turn outlasts the 1 s grace

    await(() -> discord.webhookCalls() >= 1); // the note was tried...
    assertThat(discord.messages).as("...and refused").isEmpty();
    assertThat(inbox().kept("discord"))
        .as("no process could answer it later but one given a bot token, whenever that starts")
        .isEmpty();
  }

  @Test
  void anAskWhoseProcessStoppedMoreThanADayAgoIsDroppedWithAWarningNotAnswered() throws Exception {
    start();

    try (LogCapture logged = new LogCapture()) {
      orphan(
          "int-old",
          CHANNEL,
          Instant.now().minus(DiscordGateway.STALE_AFTER).minusSeconds(60),
          Instant.now().minusSeconds(1));
      orphan("int-new", CHANNEL, Instant.now().minusSeconds(1));

      assertThat(content(discord.nextMessage())).contains("> news?");
      assertThat(content(discord.nextMessage())).isEqualTo("The bridge holds.");
      await(() -> inbox().kept("discord").isEmpty());
      assertThat(discord.messageWithin(Duration.ofMillis(500)))
          .as("the old one unanswered")
          .isNull();
      assertThat(logged.warningsAndErrors()).contains("dropped unanswered").contains("older than");
    }
    assertThat(legio.app.messageLog().size()).as("one turn, the recent one's").isEqualTo(2);
  }
}
