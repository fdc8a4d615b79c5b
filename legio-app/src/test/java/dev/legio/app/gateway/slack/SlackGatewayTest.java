package dev.legio.app.gateway.slack;

import static dev.legio.app.gateway.GatewayFixture.await;
import static dev.legio.app.gateway.slack.SlackRequests.callback;
import static dev.legio.app.gateway.slack.SlackRequests.direct;
import static dev.legio.app.gateway.slack.SlackRequests.mention;
import static dev.legio.app.gateway.slack.SlackRequests.sign;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.app.gateway.GatewayFixture;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.backend.SessionSpec;
import dev.legio.session.LeaseHolder;
import dev.legio.store.gateway.GatewayInbox;
import dev.legio.testing.PostgresTestDatabase;
import dev.legio.tools.ToolDefinition;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Slack gateway on Legio's real server, against a loopback fake of Slack's Web API, with events
 * signed as Slack signs them (its "Verifying requests from Slack" guide) by a test signing secret.
 */
class SlackGatewayTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = SlackRequests.SECRET;
  private static final Map<String, String> ENV = SlackRequests.ENV;

  @TempDir Path dir;
  private FakeSlack slack;
  private GatewayFixture legio;
  private final GatewayFixture.Sleeps sleeps = new GatewayFixture.Sleeps();
  private ReplyOutbox.Backoff backoff =
      new ReplyOutbox.Backoff(Duration.ofMillis(100), Duration.ofMillis(400));

  @AfterEach
  void stop() {
    if (legio != null) {
      legio.close();
    }
    if (slack != null) {
      slack.close();
    }
  }

  private void start(Map<String, String> env, String apiUrl, Function<String, String> toml)
      throws Exception {
    legio = new GatewayFixture(dir, env, toml, SlackRequests.gateway(apiUrl, backoff, sleeps));
  }

  private void start() throws Exception {
    slack = new FakeSlack();
    start(ENV, slack.apiUrl(), Function.identity());
    await(() -> legio.health("slack").state() == GatewayHealth.State.CONNECTED);
  }

  /** A message in C123's thread {@code ts} another node took in, claimed until {@code until}. */
  private void orphan(String ts, Instant until) {
    legio
        .app
        .store()
        .gatewayInbox()
        .takeIn(
            new GatewayInbox.Message(
                "slack", "channel:C123:ts:" + ts, "slack:C123", "C123", ts, "U123", "Ada", "news?"),
            List.of("Ev" + ts),
            Duration.ofDays(1),
            new GatewayInbox.Claimant("inbox-of-" + ts, new LeaseHolder("node-" + ts, 42)),
            Instant.now(),
            until);
  }

  private HttpResponse<String> deliver(String body, String... headers) throws Exception {
    return legio.post(SlackGateway.PATH, body, SlackRequests.signed(SECRET, body, headers));
  }

  @Test
  void urlVerificationIsAnsweredWithItsChallenge() throws Exception {
    start();
    String challenge = "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P";

    HttpResponse<String> answer =
        deliver(
            "{\"token\":\"Jhj5dZrVaK7ZwHHjRyZWjbDl\",\"challenge\":\""
                + challenge
                + "\",\"type\":\"url_verification\"}");

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(answer.body()).path("challenge").asText()).isEqualTo(challenge);
  }

  @Test
  void aForgedUnsignedOrAlteredRequestGets401AndRunsNoTurn() throws Exception {
    start();
    String body = callback("Ev1", mention("C123", "U123", "<@U0BOT> hello", "1700000000.000100"));
    long now = Instant.now().getEpochSecond();

    HttpResponse<String> forged;
    try (dev.legio.testing.LogCapture logged = new dev.legio.testing.LogCapture()) {
      forged =
          legio.post(
              SlackGateway.PATH,
              body,
              "X-Slack-Request-Timestamp",
              Long.toString(now),
              "X-Slack-Signature",
              sign("not-the-secret", now, body));
      assertThat(logged.warningsAndErrors())
          .contains("gateway slack: refused a request: the signature does not match")
          .contains("check that SLACK_SIGNING_SECRET holds the app's Signing Secret")
          .doesNotContain(SECRET);
    }
    HttpResponse<String> unsigned = legio.post(SlackGateway.PATH, body);
    HttpResponse<String> altered =
        legio.post(
            SlackGateway.PATH,
            body.replace("hello", "hellO"),
            "X-Slack-Request-Timestamp",
            Long.toString(now),
            "X-Slack-Signature",
            sign(SECRET, now, body));

    assertThat(List.of(forged, unsigned, altered))
        .allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(401));
    assertThat(forged.body()).contains("does not match").doesNotContain(SECRET);
    assertThat(legio.opened).isEmpty();
    assertThat(legio.health("slack").messagesIn()).isZero();
  }

  @Test
  void aCompressedBodyGets415NamingItsCodingAndRunsNoTurn() throws Exception {
    start();
    String body = callback("Ev1", mention("C123", "U123", "<@U0BOT> hello", "1700000000.000100"));
    long now = Instant.now().getEpochSecond();

    HttpResponse<String> compressed =
        legio.post(
            SlackGateway.PATH,
            body,
            "X-Slack-Request-Timestamp",
            Long.toString(now),
            "X-Slack-Signature",
            sign(SECRET, now, body),
            "Content-Encoding",
            "gzip");

    assertThat(compressed.statusCode()).isEqualTo(415);
    assertThat(compressed.body()).contains("Content-Encoding: gzip").contains("uncompressed");
    assertThat(compressed.headers().firstValue("Accept-Encoding")).hasValue("identity");
    assertThat(legio.opened).isEmpty();
    assertThat(legio.health("slack").messagesIn()).isZero();
  }

  @Test
  void aStaleTimestampGets401() throws Exception {
    start();
    String body = callback("Ev1", mention("C123", "U123", "<@U0BOT> hello", "1700000000.000100"));
    long sixMinutesAgo = Instant.now().minusSeconds(360).getEpochSecond();

    HttpResponse<String> stale =
        legio.post(
            SlackGateway.PATH,
            body,
            "X-Slack-Request-Timestamp",
            Long.toString(sixMinutesAgo),
            "X-Slack-Signature",
            sign(SECRET, sixMinutesAgo, body));

    assertThat(stale.statusCode()).isEqualTo(401);
    assertThat(stale.body()).contains("more than 5 minutes");
    assertThat(legio.opened).isEmpty();
  }

  @Test
  void aMentionIsATurnOfTheChannelInItsRoleAndTheReplyGoesToItsThread() throws Exception {
    start();

    HttpResponse<String> ack =
        deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> what news?", "1700.0001")));

    assertThat(ack.statusCode()).isEqualTo(200);
    FakeSlack.Call post = slack.nextPost();
    assertThat(post.authorization()).isEqualTo("Bearer " + FakeSlack.TOKEN);
    assertThat(post.params())
        .containsEntry("channel", "C123")
        .containsEntry("thread_ts", "1700.0001");
    assertThat(post.body().split("&")).as(post.body()).containsOnlyOnce("thread_ts=1700.0001");
    assertThat(post.params().get("text"))
        .contains("slack:C123 received")
        .contains("(id \"U123\")")
        .contains("what news?")
        .doesNotContain("U0BOT");
    SessionSpec spec = legio.opened.get(0);
    assertThat(spec.owner()).isEqualTo("slack:C123");
    assertThat(spec.role()).isEqualTo(SessionSpec.CHAT_ROLE);
    assertThat(legio.app.sessionTools(spec).tools())
        .extracting(ToolDefinition::name)
        .isNotEmpty()
        .noneMatch(name -> name.startsWith("publish_"));
    await(() -> legio.health("slack").messagesOut() == 1);
    assertThat(legio.health("slack").messagesIn()).isEqualTo(1);
  }

  @Test
  void slackIsAnsweredAtOnceWhileTheTurnRunsAfter() throws Exception {
    start();
    java.util.concurrent.CountDownLatch turnRunning = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    legio.replies =
        message -> {
          turnRunning.countDown();
          try {
            release.await(30, java.util.concurrent.TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return "done";
        };

    HttpResponse<String> ack =
        deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> slow one", "1.1")));

    assertThat(ack.statusCode()).isEqualTo(200);
    assertThat(turnRunning.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(slack.calls("chat.postMessage")).isZero();
    release.countDown();
    assertThat(slack.nextPost().params()).containsEntry("text", "done");
  }

  @Test
  void aChannelTakesTheRoleChannelsRolesGivesSlack() throws Exception {
    slack = new FakeSlack();
    start(ENV, slack.apiUrl(), toml -> toml.replace("slack = \"chat\"", "slack = \"operator\""));

    deliver(callback("Ev1", mention("C9", "U123", "<@U0BOT> status?", "1700.0001")));

    slack.nextPost();
    assertThat(legio.opened.get(0).owner()).isEqualTo("slack:C9");
    assertThat(legio.opened.get(0).role()).isEqualTo(SessionSpec.OPERATOR_ROLE);
  }

  @Test
  void aDirectMessageIsATurnWhileBotPostsEditsAndOtherChannelsAreNot() throws Exception {
    start();
    ObjectNode fromBot = direct("D42", "U9", "beep", "1.1").put("bot_id", "B9");
    ObjectNode edit = direct("D42", "U123", "edited", "1.2").put("subtype", "message_changed");
    ObjectNode inChannel = direct("C5", "U123", "chatter", "1.3").put("channel_type", "channel");
    ObjectNode ownPost = direct("D42", FakeSlack.BOT_USER, "my own reply", "1.4");

    for (ObjectNode ignored : List.of(fromBot, edit, inChannel, ownPost)) {
      assertThat(deliver(callback("Ev-" + ignored.path("ts").asText(), ignored)).statusCode())
          .isEqualTo(200);
    }
    deliver(callback("Ev-dm", direct("D42", "U123", "hello there", "1.5")));

    FakeSlack.Call post = slack.nextPost();
    assertThat(post.params()).containsEntry("channel", "D42").containsEntry("thread_ts", "1.5");
    assertThat(post.params().get("text")).contains("hello there");
    assertThat(legio.opened).extracting(SessionSpec::owner).containsExactly("slack:D42");
    assertThat(legio.health("slack").messagesIn()).isEqualTo(1);
  }

  @Test
  void aMentionAndADirectMessageEventOfOneMessageRunOneTurn() throws Exception {
    start();
    String text = "<@U0BOT> one message, two events";
    ObjectNode mention = mention("D42", "U123", text, "1700.0009").put("channel_type", "im");

    deliver(callback("Ev-mention", mention));
    deliver(callback("Ev-im", direct("D42", "U123", text, "1700.0009")));
    deliver(callback("Ev-next", direct("D42", "U123", "and another", "1700.0010")));

    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1700.0009");
    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1700.0010");
    assertThat(slack.postWithin(Duration.ofMillis(300))).isNull();
    assertThat(legio.health("slack").messagesIn()).isEqualTo(2);
  }

  @Test
  void aRetriedEventRunsOneTurnAlsoAfterARestartOnSqlite() throws Exception {
    slack = new FakeSlack();
    start(ENV, slack.apiUrl(), Function.identity());
    retriesRunOneTurnAcrossARestart();
  }

  @Test
  void aRetriedEventRunsOneTurnAlsoAfterARestartOnPostgres() throws Exception {
    try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
      slack = new FakeSlack();
      start(
          ENV,
          slack.apiUrl(),
          toml ->
              toml.replace("store = \"sqlite\"", "store = \"postgres\"")
                  .replace(
                      "postgres_url = \"jdbc:postgresql://127.0.0.1:5432/legio\"",
                      "postgres_url = \"" + database.url() + "\""));
      retriesRunOneTurnAcrossARestart();
      legio.close();
      legio = null;
    }
  }

  private void retriesRunOneTurnAcrossARestart() throws Exception {
    String first = callback("Ev-once", mention("C123", "U123", "<@U0BOT> once", "1700.0001"));
    deliver(first);
    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1700.0001");

    assertThat(deliver(first, "X-Slack-Retry-Num", "1", "X-Slack-Retry-Reason", "http_timeout"))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(200);
    legio.restart();
    assertThat(deliver(first, "X-Slack-Retry-Num", "2", "X-Slack-Retry-Reason", "http_timeout"))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(200);
    deliver(callback("Ev-next", mention("C123", "U123", "<@U0BOT> next", "1700.0002")));

    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1700.0002");
    assertThat(slack.postWithin(Duration.ofMillis(300))).isNull();
    assertThat(slack.calls("chat.postMessage")).isEqualTo(2);
  }

  @Test
  void hostileTextArrivesAsTextBothWays() throws Exception {
    start();
    legio.replies =
        message ->
            "<!channel> ping & <https://evil.example|click> "
                + (message.contains("<b> &") ? "seen" : "unseen");

    deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> &lt;b&gt; &amp; tags", "1700.0001")));

    assertThat(slack.nextPost().params().get("text"))
        .isEqualTo("&lt;!channel&gt; ping &amp; &lt;https://evil.example|click&gt; seen");
  }

  @Test
  void aRateLimitIsHonouredAndServerErrorsAreRetriedABoundedNumberOfTimesThenLater()
      throws Exception {
    backoff = new ReplyOutbox.Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1));
    start();
    slack.failures.add(new FakeSlack.Failure(429, "7"));

    deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> one", "1.1")));

    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1.1");
    assertThat(sleeps.asked).containsExactly(Duration.ofSeconds(7));
    assertThat(slack.calls("chat.postMessage")).isEqualTo(2);

    sleeps.asked.clear();
    for (int i = 0; i < 5; i++) {
      slack.failures.add(new FakeSlack.Failure(503, null));
    }
    deliver(callback("Ev2", mention("C123", "U123", "<@U0BOT> two", "1.2")));

    await(() -> legio.health("slack").state() == GatewayHealth.State.WAITING);
    assertThat(slack.calls("chat.postMessage")).isEqualTo(2 + 5);
    assertThat(sleeps.asked)
        .containsExactly(
            Duration.ofMillis(500),
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4));
    assertThat(legio.health("slack").detail()).contains("HTTP 503").contains("kept");

    // The outbox's next round, a second later, finds Slack answering again.
    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1.2");
    await(() -> legio.health("slack").state() == GatewayHealth.State.CONNECTED);
    assertThat(slack.calls("chat.postMessage")).isEqualTo(2 + 5 + 1);
  }

  @Test
  void aReplyOwedWhileSlackIsUnreachableIsSentOnceItIsBackAndTheGatewayConnectsAgain()
      throws Exception {
    start();
    int port = java.net.URI.create(slack.apiUrl()).getPort();
    slack.close();

    deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> anyone there?", "1700.0001")));

    await(() -> legio.health("slack").state() == GatewayHealth.State.WAITING);
    assertThat(legio.health("slack").detail()).contains("cannot reach").contains("kept");
    assertThat(legio.app.store().gatewayState().pending("slack"))
        .as("kept in the database while Slack is away")
        .hasSize(1);

    slack = new FakeSlack(port);
    FakeSlack.Call post = slack.nextPost();
    assertThat(post.params())
        .containsEntry("channel", "C123")
        .containsEntry("thread_ts", "1700.0001");
    await(() -> legio.health("slack").state() == GatewayHealth.State.CONNECTED);
    assertThat(slack.postWithin(Duration.ofMillis(500))).as("sent once").isNull();
    await(() -> legio.app.store().gatewayState().pending("slack").isEmpty());
    assertThat(slack.calls("auth.test"))
        .as("no auth.test before each post (the SDK's statistics, which logged every failure)")
        .isZero();
  }

  @Test
  void aReplyTheDatabaseCannotKeepIsSentOnceAndTheGatewaySaysWhatIsWrong() throws Exception {
    start();
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + legio.root.resolve("castra/praetorium.db"));
        java.sql.Statement s = c.createStatement()) {
      s.execute("DROP TABLE gateway_outbox"); // a damaged database
    }

    deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> still there?", "1700.0001")));

    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1700.0001");
    await(() -> legio.health("slack").state() == GatewayHealth.State.FAILING);
    assertThat(legio.health("slack").detail())
        .contains("cannot be kept")
        .contains("gateway_outbox")
        .contains("restore praetorium.db from a backup");
    assertThat(slack.postWithin(Duration.ofMillis(300))).isNull();
  }

  @Test
  void aMessageTheDatabaseCannotTakeInGets500SoThatSlackDeliversItAgain() throws Exception {
    start();
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + legio.root.resolve("castra/praetorium.db"));
        java.sql.Statement s = c.createStatement()) {
      s.execute("ALTER TABLE gateway_inbox RENAME TO gateway_inbox_away"); // a damaged database
    }
    String event = callback("Ev1", mention("C123", "U123", "<@U0BOT> still there?", "1700.0001"));

    HttpResponse<String> refused = deliver(event);

    assertThat(refused.statusCode()).isEqualTo(500);
    assertThat(refused.body()).doesNotContain("gateway_inbox");
    assertThat(slack.postWithin(Duration.ofMillis(300))).as("no turn ran").isNull();
    assertThat(legio.app.messageLog().size()).isZero();

    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + legio.root.resolve("castra/praetorium.db"));
        java.sql.Statement s = c.createStatement()) {
      s.execute("ALTER TABLE gateway_inbox_away RENAME TO gateway_inbox");
    }
    assertThat(deliver(event, "X-Slack-Retry-Num", "1", "X-Slack-Retry-Reason", "http_error"))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(200);
    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1700.0001");
  }

  @Test
  void aMessageAnotherNodeTookInIsAnsweredHereOnceItsClaimRanOutAndNotBefore() throws Exception {
    start();
    GatewayInbox inbox = legio.app.store().gatewayInbox();
    orphan("1700.0001", Instant.now().minusSeconds(1));
    orphan("1700.0002", Instant.now().plus(Duration.ofHours(1)));

    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1700.0001");
    assertThat(slack.postWithin(Duration.ofMillis(2_500)))
        .as("the other node's live claim is left alone")
        .isNull();
    assertThat(inbox.kept("slack"))
        .extracting(k -> k.message().thread())
        .containsExactly("1700.0002");
  }

  @Test
  void whileLegioStopsNoOrphanIsTakenOverItIsLeftToTheNextProcess() throws Exception {
    start();
    legio.gateways.stopTaking();
    GatewayInbox inbox = legio.app.store().gatewayInbox();
    orphan("1.1", Instant.now().minusSeconds(1));

    assertThat(slack.postWithin(Duration.ofMillis(2_500))).isNull();
    assertThat(inbox.kept("slack")).hasSize(1);
    assertThat(legio.app.messageLog().size()).isZero();
  }

  @Test
  void aReplyStillOwedWhenLegioStopsIsSentByTheNextStart() throws Exception {
    start();
    int port = java.net.URI.create(slack.apiUrl()).getPort();
    slack.close();
    deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> before the stop", "1700.0001")));
    await(() -> !legio.app.store().gatewayState().pending("slack").isEmpty());
    long logged = legio.app.messageLog().size();

    legio.restart(); // a new process on the same database; Slack is still away
    slack = new FakeSlack(port);

    assertThat(slack.nextPost().params()).containsEntry("thread_ts", "1700.0001");
    assertThat(legio.app.messageLog().size())
        .as("the turn ran once: the new process sent the reply owed, it did not answer again")
        .isEqualTo(logged);
  }

  @Test
  void aReplySlackRefusesForGoodIsDroppedAndTheNextStillGoes() throws Exception {
    start();
    slack.goneChannels.add("C404");

    deliver(callback("Ev1", mention("C404", "U123", "<@U0BOT> here?", "1.1")));
    await(() -> slack.calls("chat.postMessage") == 1);
    deliver(callback("Ev2", mention("C123", "U123", "<@U0BOT> and here?", "1.2")));

    assertThat(slack.nextPost().params()).containsEntry("channel", "C123");
    assertThat(slack.calls("chat.postMessage"))
        .as("the refused one is not tried again")
        .isEqualTo(2);
    assertThat(legio.health("slack").state()).isEqualTo(GatewayHealth.State.CONNECTED);
    await(() -> legio.app.store().gatewayState().pending("slack").isEmpty());
  }

  @Test
  void aSlackThatIsDownAtStartLeavesTheGatewayWaitingWhileLegioServesUntilItIsUp()
      throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    start(ENV, "http://127.0.0.1:" + closedPort + "/api", Function.identity());

    await(() -> legio.health("slack").detail().contains("cannot reach"));
    GatewayHealth health = legio.health("slack");
    assertThat(health.state()).isEqualTo(GatewayHealth.State.WAITING);
    assertThat(health.detail()).contains("http://127.0.0.1:" + closedPort + "/api");
    assertThat(legio.get("/healthz", null).statusCode()).isEqualTo(200);
    HttpResponse<String> status = legio.get("/api/v1/status", legio.operatorToken);
    assertThat(status.statusCode()).isEqualTo(200);
    JsonNode gateway = JSON.readTree(status.body()).path("gateways").get(0);
    assertThat(gateway.path("name").asText()).isEqualTo("slack");
    assertThat(gateway.path("state").asText()).isEqualTo("waiting");

    slack = new FakeSlack(closedPort);
    await(() -> legio.health("slack").state() == GatewayHealth.State.CONNECTED);
    deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> back?", "1.1")));
    assertThat(slack.nextPost().params()).containsEntry("channel", "C123");
  }

  @Test
  void aRefusedTokenLeavesTheGatewayFailingWithAnActionableMessageWithoutTheToken()
      throws Exception {
    slack = new FakeSlack();
    String wrong = "xoxb-wrong-0123456789-abcdefghij";
    start(
        Map.of("SLACK_SIGNING_SECRET", SECRET, "SLACK_BOT_TOKEN", wrong),
        slack.apiUrl(),
        Function.identity());

    await(() -> legio.health("slack").state() == GatewayHealth.State.FAILING);
    String detail = legio.health("slack").detail();
    assertThat(detail)
        .contains("refuses the bot token in SLACK_BOT_TOKEN")
        .contains("invalid_auth")
        .contains("OAuth & Permissions")
        .doesNotContain(wrong)
        .doesNotContain(SECRET);
  }

  @Test
  void whileLegioStopsARequestGets503AndIsNotTakenIn() throws Exception {
    start();
    legio.gateways.close();

    HttpResponse<String> late =
        deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> late", "1.1")));

    assertThat(late.statusCode()).isEqualTo(503);
    assertThat(legio.health("slack").state()).isEqualTo(GatewayHealth.State.STOPPED);
    assertThat(
            legio
                .app
                .store()
                .deliveries()
                .firstDelivery("slack", "Ev1", Instant.now(), Duration.ofMinutes(1)))
        .as("the event was not recorded, so Slack's retry after the restart runs it")
        .isTrue();
  }

  @Test
  void withoutABotTokenAMentionSpendsNoTurnSinceNoReplyCouldBePosted() throws Exception {
    slack = new FakeSlack();
    start(Map.of("SLACK_SIGNING_SECRET", SECRET), slack.apiUrl(), Function.identity());
    assertThat(legio.health("slack").state()).isEqualTo(GatewayHealth.State.FAILING);

    HttpResponse<String> ack =
        deliver(callback("Ev1", mention("C123", "U123", "<@U0BOT> what news?", "1700.0001")));

    assertThat(ack.statusCode()).isEqualTo(200);
    Thread.sleep(500); // the turn would run in the background
    assertThat(legio.opened).isEmpty();
    assertThat(legio.app.messageLog().size()).isZero();
  }

  @Test
  void missingSecretsLeaveTheGatewayFailingAndEveryRequestRefused() throws Exception {
    slack = new FakeSlack();
    start(Map.of(), slack.apiUrl(), Function.identity());

    GatewayHealth health = legio.health("slack");
    assertThat(health.state()).isEqualTo(GatewayHealth.State.FAILING);
    assertThat(health.detail()).contains("set SLACK_SIGNING_SECRET").contains("SLACK_BOT_TOKEN");
    assertThat(deliver("{\"type\":\"url_verification\",\"challenge\":\"x\"}").statusCode())
        .isEqualTo(401);
  }
}
