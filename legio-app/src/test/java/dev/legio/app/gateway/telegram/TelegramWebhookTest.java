package dev.legio.app.gateway.telegram;

import static dev.legio.app.gateway.telegram.TelegramFixture.OPERATOR;
import static dev.legio.app.gateway.telegram.TelegramFixture.TOKEN;
import static dev.legio.app.gateway.telegram.TelegramFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.gateway.GatewayHealth;
import dev.legio.app.gateway.Gateways;
import dev.legio.app.http.SlowSender;
import dev.legio.app.server.ApiTokens;
import dev.legio.app.server.LegioServer;
import dev.legio.app.server.Role;
import dev.legio.app.server.ServerParts;
import dev.legio.log.Message;
import dev.legio.log.Names;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhook mode: Legio's server receives Telegram's posts at {@code /gateways/telegram/webhook},
 * checking the secret token, processing each update once.
 */
class TelegramWebhookTest {
  static final String SECRET = "hook-secret_42";
  static final String PUBLIC_URL = "https://legio.example.com/gateways/telegram/webhook";

  @TempDir Path dir;
  private FakeTelegram telegram;
  private TelegramFixture f;
  private TelegramGateway gateway;
  private LegioServer server;
  private final List<LegioServer> closeAfter = new java.util.ArrayList<>();
  private ServerParts parts;
  private ApiTokens tokens;
  private Gateways gateways;
  private String operatorToken;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    telegram = new FakeTelegram(TOKEN);
    f =
        new TelegramFixture(
            dir, telegram.url(), "mode = \"webhook\"\npublic_url = \"" + PUBLIC_URL + "\"");
    gateway = f.gateway();
    parts =
        new ServerParts(
            f.engine,
            f.app.messageLog(),
            f.app.sessions(),
            f.app.transcripts(),
            f.app.memoria(),
            f.app.agents(),
            f.app.config().sessions(),
            Clock.systemUTC(),
            f.app.usage(),
            f.app.historyEditor(),
            f.app.tasks());
    tokens = new ApiTokens(f.app.workspace().castra());
    operatorToken = tokens.create("console", Role.OPERATOR, List.of()).secret();
    gateways = new Gateways(List.of(gateway));
    server = LegioServer.builder(f.app.config().server(), parts, tokens).gateways(gateways).start();
    gateways.start();
    await("webhook set", () -> gateway.health().state() == GatewayHealth.State.CONNECTED);
  }

  @AfterEach
  void stop() {
    closeAfter.forEach(LegioServer::close);
    server.close();
    f.close();
    telegram.close();
  }

  private HttpResponse<String> post(String secret, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server.url().resolve(TelegramGateway.WEBHOOK_PATH))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (secret != null) {
      b.header(TelegramWebhook.SECRET_HEADER, secret);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private List<String> fromCaesar() {
    return f.app.messageLog().history(100).stream()
        .filter(m -> m.sender().equals(Names.CAESAR))
        .map(Message::text)
        .toList();
  }

  @Test
  void theWebhookIsSetWithItsSecretAndPollingIsNotUsed() {
    assertThat(telegram.webhookUrl).isEqualTo(PUBLIC_URL);
    assertThat(telegram.webhookSecret).isEqualTo(SECRET);
    assertThat(telegram.calls("getUpdates")).isEmpty();
  }

  @Test
  void onceTheGatewayStopsTakingAnUpdateGets503SoTelegramSendsItAgainAndNothingHappens()
      throws Exception {
    long id = telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus hi");
    gateways.stopTaking();

    HttpResponse<String> r = post(SECRET, telegram.update(id).toString());

    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).contains("shutting down");
    assertThat(fromCaesar()).isEmpty();
  }

  @Test
  void aPostWithoutTheRightSecretIsRefusedAndNothingHappens() throws Exception {
    long id = telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus hi");
    String update = telegram.update(id).toString();
    assertThat(post(null, update).statusCode()).isEqualTo(401);
    assertThat(post("wrong-secret", update).statusCode()).isEqualTo(401);
    assertThat(post(SECRET.toUpperCase(), update).statusCode()).isEqualTo(401);
    assertThat(fromCaesar()).isEmpty();
    assertThat(telegram.sent).isEmpty();
    assertThat(post(SECRET, "not json").statusCode()).isEqualTo(400);
    assertThat(post(SECRET, "{\"message\":{}}").statusCode()).isEqualTo(400);
  }

  @Test
  void aRefusalGivenBeforeTheBodyIsReadClosesTheConnectionAndSaysSo() throws Exception {
    // The headers announce a body that never comes. The 401 is answered without reading it, and
    // a client must not be left thinking the connection can carry its next request: that request
    // would be lost when the server closes it (the JDK's client then fails with "received no
    // bytes").
    String answer =
        SlowSender.stopsAfter(
            server.url(),
            "POST "
                + TelegramGateway.WEBHOOK_PATH
                + " HTTP/1.1\r\nHost: legio\r\nContent-Type: application/json\r\n"
                + TelegramWebhook.SECRET_HEADER
                + ": wrong-secret\r\nContent-Length: 100\r\n",
            "");
    // Read until the server closes the connection (a server that kept it would time out here).
    assertThat(answer).startsWith("HTTP/1.1 401");
    assertThat(answer.toLowerCase(Locale.ROOT)).contains("\r\nconnection: close\r\n");
    assertThat(fromCaesar()).isEmpty();
  }

  @Test
  void aBodyThatStopsOrTricklesGets408AndNothingHappens() throws Exception {
    // A server of its own with a short idle time-out, beside the fixture's (closing a server
    // closes its gateways).
    LegioServer impatient =
        LegioServer.builder(f.app.config().server(), parts, tokens)
            .gateways(gateways)
            .idleTimeout(Duration.ofSeconds(1))
            .start();
    closeAfter.add(impatient);
    String head =
        "POST "
            + TelegramGateway.WEBHOOK_PATH
            + " HTTP/1.1\r\nHost: legio\r\nContent-Type: application/json\r\n"
            + TelegramWebhook.SECRET_HEADER
            + ": "
            + SECRET
            + "\r\nContent-Length: 100\r\n";
    assertThat(SlowSender.stopsAfter(impatient.url(), head, "{\"update_id\": 1"))
        .startsWith("HTTP/1.1 408")
        .containsIgnoringCase("\r\nconnection: close\r\n")
        .contains("stopped arriving");
    assertThat(SlowSender.trickles(impatient.url(), head, Duration.ofMillis(300)))
        .startsWith("HTTP/1.1 408")
        .containsIgnoringCase("\r\nconnection: close\r\n")
        .contains("did not arrive whole within 2 s");
    assertThat(fromCaesar()).isEmpty();
  }

  @Test
  void aCompressedBodyGets415NamingItsCodingAndNothingHappens() throws Exception {
    long id = telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus hold");
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(server.url().resolve(TelegramGateway.WEBHOOK_PATH))
                .header("Content-Type", "application/json")
                .header("Content-Encoding", "br")
                .header(TelegramWebhook.SECRET_HEADER, SECRET)
                .POST(HttpRequest.BodyPublishers.ofString(telegram.update(id).toString()))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(r.statusCode()).isEqualTo(415);
    assertThat(r.body()).contains("Content-Encoding: br").contains("uncompressed");
    assertThat(r.headers().firstValue("Accept-Encoding")).hasValue("identity");
    assertThat(fromCaesar()).isEmpty();
  }

  @Test
  void anOversizeBodyGets413AlsoWhenItIsSentInChunksWithoutALength() throws Exception {
    byte[] big = new byte[(2 << 20)];
    java.util.Arrays.fill(big, (byte) ' ');
    HttpRequest chunked =
        HttpRequest.newBuilder(server.url().resolve(TelegramGateway.WEBHOOK_PATH))
            .header("Content-Type", "application/json")
            .header(TelegramWebhook.SECRET_HEADER, SECRET)
            .POST(
                HttpRequest.BodyPublishers.ofInputStream(
                    () -> new java.io.ByteArrayInputStream(big)))
            .build();
    HttpResponse<String> r;
    try {
      r = http.send(chunked, HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      // The server may close the connection while the rest of the body is still being sent.
      assertThat(fromCaesar()).isEmpty();
      return;
    }
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(r.body()).contains("at most 1 MiB");
    assertThat(fromCaesar()).isEmpty();
  }

  @Test
  void anUpdateIsAnsweredOnceEvenWhenTelegramPostsItAgain() throws Exception {
    long id = telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus hold");
    String update = telegram.update(id).toString();
    HttpResponse<String> first = post(SECRET, update);
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(telegram.sentTo("1001")).hasSize(1);
    assertThat(post(SECRET, update).statusCode()).isEqualTo(200); // Telegram's retry
    assertThat(fromCaesar()).containsExactly("@vorenus hold");
    assertThat(telegram.sentTo("1001")).hasSize(1);

    long other = telegram.userWrites(2002, "private", 2002, "Ada", "hello");
    assertThat(post(SECRET, telegram.update(other).toString()).statusCode()).isEqualTo(200);
    assertThat(FakeTelegram.parseHtml(telegram.sentTo("2002").get(0).text()))
        .contains("[from \"Ada\" (id \"2002\")] hello");
  }

  @Test
  void aReplyTelegramCouldNotTakeIsSentLaterWithoutAnotherUpdate() throws Exception {
    telegram.failNext("sendMessage", TelegramApi.MAX_ATTEMPTS, 503, "Service Unavailable", null);
    long id = telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus later");
    assertThat(post(SECRET, telegram.update(id).toString()).statusCode()).isEqualTo(200);
    await("sent on a retry", () -> telegram.sentTo("1001").size() == 1);
    assertThat(telegram.calls("sendMessage")).hasSize(TelegramApi.MAX_ATTEMPTS + 1);
    await("connected again", () -> gateway.health().state() == GatewayHealth.State.CONNECTED);
    assertThat(fromCaesar()).containsExactly("@vorenus later");
  }

  @Test
  void theApisStatusShowsTheGateway() throws Exception {
    long id = telegram.userWrites(OPERATOR, "private", OPERATOR, "Caesar", "@vorenus hi");
    post(SECRET, telegram.update(id).toString());
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/status"))
                .header("Authorization", "Bearer " + operatorToken)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode status = FakeTelegram.JSON.readTree(r.body());
    assertThat(status.at("/gateways/0/name").asText()).isEqualTo("telegram");
    assertThat(status.at("/gateways/0/state").asText()).isEqualTo("connected");
    assertThat(status.at("/gateways/0/messages_in").asLong()).isEqualTo(1);
    assertThat(status.at("/gateways/0/messages_out").asLong()).isEqualTo(1);
  }
}
