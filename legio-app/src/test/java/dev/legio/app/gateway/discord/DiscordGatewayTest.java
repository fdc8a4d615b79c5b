package dev.legio.app.gateway.discord;

import static dev.legio.app.gateway.GatewayFixture.await;
import static dev.legio.app.gateway.discord.DiscordRequests.ask;
import static dev.legio.app.gateway.discord.DiscordRequests.configure;
import static dev.legio.app.gateway.discord.DiscordRequests.gateway;
import static dev.legio.app.gateway.discord.DiscordRequests.generate;
import static dev.legio.app.gateway.discord.DiscordRequests.publicKeyHex;
import static dev.legio.app.gateway.discord.DiscordRequests.sign;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.legio.app.gateway.GatewayFixture;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.backend.SessionSpec;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Discord gateway on Legio's real server, against a loopback fake of Discord's HTTP API, with
 * interactions signed as Discord signs them by a generated Ed25519 key pair whose public key is the
 * configured {@code public_key}.
 */
class DiscordGatewayTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> ENV = Map.of("DISCORD_BOT_TOKEN", FakeDiscord.TOKEN);

  @TempDir Path dir;
  private FakeDiscord discord;
  private GatewayFixture legio;
  private final GatewayFixture.Sleeps sleeps = new GatewayFixture.Sleeps();
  private ReplyOutbox.Backoff backoff =
      new ReplyOutbox.Backoff(Duration.ofMillis(100), Duration.ofMillis(400));
  private final KeyPair keys = generate();

  @AfterEach
  void stop() {
    if (legio != null) {
      legio.close();
    }
    if (discord != null) {
      discord.close();
    }
  }

  private void start(Map<String, String> env, String apiUrl) throws Exception {
    legio =
        new GatewayFixture(
            dir,
            env,
            toml -> configure(toml, apiUrl, publicKeyHex(keys)),
            gateway(backoff, sleeps));
  }

  private void start() throws Exception {
    discord = new FakeDiscord();
    start(ENV, discord.apiUrl());
    await(() -> legio.health("discord").state() == GatewayHealth.State.CONNECTED);
  }

  private HttpResponse<String> deliver(String body) throws Exception {
    String now = Long.toString(Instant.now().getEpochSecond());
    return legio.post(
        DiscordGateway.PATH,
        body,
        "X-Signature-Ed25519",
        sign(keys.getPrivate(), now, body),
        "X-Signature-Timestamp",
        now);
  }

  @Test
  void aPingIsAnsweredWithAPong() throws Exception {
    start();

    HttpResponse<String> pong = deliver("{\"id\":\"1\",\"type\":1,\"application_id\":\"1\"}");

    assertThat(pong.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(pong.body())).isEqualTo(JSON.readTree("{\"type\":1}"));
  }

  @Test
  void aBadOrMissingSignatureGets401AndRunsNoTurn() throws Exception {
    start();
    String body = ask("int-1", "tok-1", "987654321", "hello");
    String now = Long.toString(Instant.now().getEpochSecond());
    PrivateKey other = generate().getPrivate();

    HttpResponse<String> otherKey =
        legio.post(
            DiscordGateway.PATH,
            body,
            "X-Signature-Ed25519",
            sign(other, now, body),
            "X-Signature-Timestamp",
            now);
    HttpResponse<String> altered =
        legio.post(
            DiscordGateway.PATH,
            body.replace("hello", "hellO"),
            "X-Signature-Ed25519",
            sign(keys.getPrivate(), now, body),
            "X-Signature-Timestamp",
            now);
    HttpResponse<String> unsigned = legio.post(DiscordGateway.PATH, body);

    assertThat(List.of(otherKey, altered, unsigned))
        .allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(401));
    assertThat(otherKey.body()).contains("invalid request signature");
    assertThat(legio.opened).isEmpty();
  }

  @Test
  void aStaleTimestampGets401EvenWhenSigned() throws Exception {
    start();
    String body = ask("int-1", "tok-1", "987654321", "hello");
    String old = Long.toString(Instant.now().minusSeconds(360).getEpochSecond());

    HttpResponse<String> replay =
        legio.post(
            DiscordGateway.PATH,
            body,
            "X-Signature-Ed25519",
            sign(keys.getPrivate(), old, body),
            "X-Signature-Timestamp",
            old);

    assertThat(replay.statusCode()).isEqualTo(401);
    assertThat(replay.body()).contains("more than 5 minutes");
    assertThat(legio.opened).isEmpty();
  }

  @Test
  void askIsDeferredThenItsOriginalResponseIsEditedWithTheAnswer() throws Exception {
    start();

    HttpResponse<String> deferred = deliver(ask("int-1", "tok-1", "987654321", "what news?"));

    assertThat(deferred.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(deferred.body()).path("type").asInt()).isEqualTo(5);
    FakeDiscord.Call edit = discord.nextMessage();
    assertThat(edit.method()).isEqualTo("PATCH");
    assertThat(edit.path())
        .isEqualTo("/webhooks/" + FakeDiscord.APPLICATION + "/tok-1/messages/@original");
    assertThat(edit.body().path("content").asText())
        .contains("discord:987654321 received")
        .contains("\"Ada\" (id \"42\")")
        .contains("what news?");
    assertThat(edit.body().path("allowed_mentions")).isEqualTo(JSON.readTree("{\"parse\":[]}"));
    SessionSpec spec = legio.opened.get(0);
    assertThat(spec.owner()).isEqualTo("discord:987654321");
    assertThat(spec.role()).isEqualTo(SessionSpec.CHAT_ROLE);
    await(() -> legio.health("discord").messagesOut() == 1);
    assertThat(legio.health("discord").messagesIn()).isEqualTo(1);
  }

  @Test
  void theDeferredResponseComesAtOnceWhileTheTurnRunsAfter() throws Exception {
    start();
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    legio.replies =
        message -> {
          try {
            release.await(30, java.util.concurrent.TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return "done";
        };

    HttpResponse<String> deferred = deliver(ask("int-1", "tok-1", "987654321", "slow one"));

    assertThat(JSON.readTree(deferred.body()).path("type").asInt()).isEqualTo(5);
    assertThat(discord.webhookCalls()).isZero();
    release.countDown();
    assertThat(discord.nextMessage().body().path("content").asText()).isEqualTo("done");
  }

  @Test
  void aLongAnswerIsSplitIntoFollowUpsWithItsCodeBlockClosedAndReopened() throws Exception {
    start();
    StringBuilder code = new StringBuilder();
    for (int i = 0; i < 120; i++) {
      code.append("int value").append(i).append(" = compute(").append(i).append("); // step\n");
    }
    String answer = "Here is the code:\n\n```java\n" + code + "```\n\nThat is all.";
    assertThat(answer.length()).isGreaterThan(4_000);
    legio.replies = message -> answer;

    deliver(ask("int-1", "tok-1", "987654321", "show me"));

    List<FakeDiscord.Call> sent = new ArrayList<>();
    sent.add(discord.nextMessage());
    while (sent.stream().mapToInt(c -> c.body().path("content").asText().length()).sum()
        < answer.length()) {
      sent.add(discord.nextMessage());
    }
    assertThat(sent.get(0).method()).isEqualTo("PATCH");
    assertThat(sent.subList(1, sent.size()))
        .isNotEmpty()
        .allSatisfy(
            c -> {
              assertThat(c.method()).isEqualTo("POST");
              assertThat(c.path()).isEqualTo("/webhooks/" + FakeDiscord.APPLICATION + "/tok-1");
            });
    List<String> texts = sent.stream().map(c -> c.body().path("content").asText()).toList();
    assertThat(texts).allSatisfy(t -> assertThat(t.length()).isLessThanOrEqualTo(2_000));
    assertThat(texts).allSatisfy(t -> assertThat(t.split("```", -1).length % 2).as(t).isEqualTo(1));
    assertThat(texts.get(1)).startsWith("```java\n");
    assertThat(sent)
        .allSatisfy(
            c ->
                assertThat(c.body().path("allowed_mentions"))
                    .isEqualTo(JSON.readTree("{\"parse\":[]}")));
    assertThat(codeLines(String.join("\n", texts))).isEqualTo(codeLines(answer));
  }

  /** The lines of {@code text} that are not fences, in order. */
  private static List<String> codeLines(String text) {
    return Arrays.stream(text.split("\n")).filter(l -> !l.startsWith("```")).toList();
  }

  @Test
  void hostileTextCannotMentionAnyone() throws Exception {
    start();
    String hostile = "@everyone @here <@&1234> <@42> **pinged**";
    legio.replies = message -> hostile;

    deliver(ask("int-1", "tok-1", "987654321", "@everyone hi"));

    FakeDiscord.Call edit = discord.nextMessage();
    assertThat(edit.body().path("content").asText()).isEqualTo(hostile);
    assertThat(edit.body().path("allowed_mentions")).isEqualTo(JSON.readTree("{\"parse\":[]}"));
  }

  @Test
  void aReplayedInteractionRunsNoSecondTurn() throws Exception {
    start();
    String body = ask("int-1", "tok-1", "987654321", "once");

    deliver(body);
    discord.nextMessage();
    HttpResponse<String> again = deliver(body);
    deliver(ask("int-2", "tok-2", "987654321", "twice"));

    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(discord.nextMessage().path()).contains("/tok-2/");
    assertThat(discord.messageWithin(Duration.ofMillis(300))).isNull();
    assertThat(legio.health("discord").messagesIn()).isEqualTo(2);
  }

  @Test
  void aRateLimitIsHonouredAndServerErrorsAreRetriedABoundedNumberOfTimesThenLater()
      throws Exception {
    backoff = new ReplyOutbox.Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1));
    start();
    discord.failures.add(new FakeDiscord.Failure(429, 0.25));

    deliver(ask("int-1", "tok-1", "987654321", "one"));

    assertThat(discord.nextMessage().path()).contains("/tok-1/");
    assertThat(sleeps.asked).containsExactly(Duration.ofMillis(250));

    sleeps.asked.clear();
    for (int i = 0; i < 5; i++) {
      discord.failures.add(new FakeDiscord.Failure(502, null));
    }
    deliver(ask("int-2", "tok-2", "987654321", "two"));

    await(() -> legio.health("discord").state() == GatewayHealth.State.WAITING);
    assertThat(discord.webhookCalls()).isEqualTo(2 + 5);
    assertThat(sleeps.asked)
        .containsExactly(
            Duration.ofMillis(500),
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4));
    assertThat(legio.health("discord").detail()).contains("HTTP 502").contains("kept");

    // The outbox's next round, a second later, finds Discord answering again.
    assertThat(discord.nextMessage().path()).contains("/tok-2/");
    await(() -> legio.health("discord").state() == GatewayHealth.State.CONNECTED);
    assertThat(discord.webhookCalls()).isEqualTo(2 + 5 + 1);
  }

  @Test
  void anAnswerOwedWhileDiscordIsUnreachableIsSentOnceItIsBack() throws Exception {
    start();
    int port = java.net.URI.create(discord.apiUrl()).getPort();
    discord.close();

    deliver(ask("int-1", "tok-1", "987654321", "anyone there?"));

    await(() -> legio.health("discord").state() == GatewayHealth.State.WAITING);
    assertThat(legio.health("discord").detail()).contains("cannot reach").contains("kept");

    discord = new FakeDiscord(port);
    FakeDiscord.Call edit = discord.nextMessage();
    assertThat(edit.method()).isEqualTo("PATCH");
    assertThat(edit.path()).endsWith("/tok-1/messages/@original");
    await(() -> legio.health("discord").state() == GatewayHealth.State.CONNECTED);
    assertThat(discord.messages.poll(500, java.util.concurrent.TimeUnit.MILLISECONDS))
        .as("sent once")
        .isNull();
  }

  @Test
  void answersStillOwedAtTheStopAreCountedInOneWarningThoughTheGatewayIsClosedTwiceAndKept()
      throws Exception {
    start();
    discord.close();
    deliver(ask("int-1", "tok-1", "987654321", "anyone there?"));
    await(() -> legio.health("discord").state() == GatewayHealth.State.WAITING);

    try (dev.legio.testing.LogCapture logged = new dev.legio.testing.LogCapture()) {
      legio.gateways.close(); // serve's drain
      legio.gateways.close(); // and its shutdown
      assertThat(
              logged
                  .warningsAndErrors()
                  .lines()
                  .filter(l -> l.contains("were not sent before Legio stopped")))
          .hasSize(1)
          .first()
          .asString()
          .contains("1 message(s) with an interaction's token")
          .contains("the next start answers");
    }
    assertThat(legio.app.store().gatewayInbox().kept("discord"))
        .as("the /ask stays for the next process")
        .hasSize(1);
  }

  @Test
  void withoutABotTokenAnAnswerSentDoesNotMakeTheGatewayLookConnected() throws Exception {
    discord = new FakeDiscord();
    start(Map.of(), discord.apiUrl());
    assertThat(legio.health("discord").state()).isEqualTo(GatewayHealth.State.FAILING);

    deliver(ask("int-1", "tok-1", "987654321", "hello"));

    assertThat(discord.nextMessage().path()).contains("/tok-1/");
    Thread.sleep(200);
    GatewayHealth health = legio.health("discord");
    assertThat(health.state()).isEqualTo(GatewayHealth.State.FAILING);
    assertThat(health.detail()).contains("DISCORD_BOT_TOKEN");
  }

  @Test
  void anInteractionTokenThatCouldChangeTheFollowUpUrlIsRefused() throws Exception {
    start();

    for (String token : List.of("../../applications/@me", "a/b", "..", "tok?x=1", "tok%2F", "")) {
      HttpResponse<String> answer = deliver(ask("int-" + token, token, "987654321", "hello"));
      assertThat(answer.statusCode()).as(token).isEqualTo(200);
      assertThat(answer.body()).as(token).doesNotContain("\"type\":5");
    }
    Thread.sleep(300);
    assertThat(discord.webhookCalls()).isZero();
    assertThat(legio.opened).isEmpty();
  }

  @Test
  void aDiscordThatIsDownAtStartLeavesTheGatewayWaitingWhileLegioServesAndAnswersPings()
      throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    start(ENV, "http://127.0.0.1:" + closedPort + "/api/v10");

    await(() -> legio.health("discord").detail().contains("cannot reach"));
    assertThat(legio.health("discord").state()).isEqualTo(GatewayHealth.State.WAITING);
    assertThat(legio.get("/healthz", null).statusCode()).isEqualTo(200);
    JsonNode status =
        JSON.readTree(legio.get("/api/v1/status", legio.operatorToken).body()).path("gateways");
    assertThat(status.get(0).path("state").asText()).isEqualTo("waiting");
    assertThat(deliver("{\"id\":\"1\",\"type\":1}").body()).isEqualTo("{\"type\":1}");
  }

  @Test
  void aRefusedTokenLeavesTheGatewayFailingWithoutShowingIt() throws Exception {
    discord = new FakeDiscord();
    String wrong = "MTk4NjIyNDgzNDcxOTI1MjQ4.wrong-token-value";
    start(Map.of("DISCORD_BOT_TOKEN", wrong), discord.apiUrl());

    await(() -> legio.health("discord").state() == GatewayHealth.State.FAILING);
    assertThat(legio.health("discord").detail())
        .contains("refuses the bot token in DISCORD_BOT_TOKEN")
        .contains("HTTP 401")
        .contains("Reset Token")
        .doesNotContain(wrong);
  }

  @Test
  void aTokenOfAnotherApplicationLeavesTheGatewayFailing() throws Exception {
    discord = new FakeDiscord();
    discord.applicationOfToken = "999";
    start(ENV, discord.apiUrl());

    await(() -> legio.health("discord").state() == GatewayHealth.State.FAILING);
    assertThat(legio.health("discord").detail())
        .contains("belongs to application 999")
        .contains("application_id = " + FakeDiscord.APPLICATION)
        .doesNotContain(FakeDiscord.TOKEN);
  }
}
