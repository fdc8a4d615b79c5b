package dev.legio.app.gateway.slack;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.app.gateway.GatewayFixture;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.app.gateway.webhook.SharedOwedReplies;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the Slack tests send and run: events as Slack sends them (its Events API payloads), signed
 * as Slack signs them ("Verifying requests from Slack") with a test signing secret, and the Slack
 * gateway built as the composition root builds it.
 */
final class SlackRequests {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

  /** How long the test gateway's claims on the messages it took in last: a round each second. */
  static final Duration CLAIM = Duration.ofSeconds(3);

  static final Map<String, String> ENV =
      Map.of("SLACK_SIGNING_SECRET", SECRET, "SLACK_BOT_TOKEN", FakeSlack.TOKEN);

  private SlackRequests() {}

  /** The Slack gateway against the Web API at {@code apiUrl}. */
  static GatewayFixture.Gateways gateway(
      String apiUrl, ReplyOutbox.Backoff backoff, GatewayFixture.Sleeps sleeps) {
    return (app, doors, deliveries) ->
        List.of(
            new SlackGateway(
                app.config().slack().withApiUrl(apiUrl),
                doors,
                app.store().gatewayInbox(),
                CLAIM,
                new SharedOwedReplies(
                    app.store().gatewayState(),
                    app.store().jobLeases(),
                    SlackGateway.NAME,
                    Duration.ofSeconds(30),
                    Clock.systemUTC()),
                backoff,
                Clock.systemUTC(),
                sleeps));
  }

  static String sign(String secret, long timestamp, String body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return "v0="
        + HexFormat.of()
            .formatHex(
                mac.doFinal(("v0:" + timestamp + ":" + body).getBytes(StandardCharsets.UTF_8)));
  }

  /** Slack's timestamp and signature headers for {@code body}, then {@code headers}. */
  static String[] signed(String secret, String body, String... headers) throws Exception {
    long now = Instant.now().getEpochSecond();
    String[] all = new String[headers.length + 4];
    all[0] = "X-Slack-Request-Timestamp";
    all[1] = Long.toString(now);
    all[2] = "X-Slack-Signature";
    all[3] = sign(secret, now, body);
    System.arraycopy(headers, 0, all, 4, headers.length);
    return all;
  }

  /** An event_callback as Slack sends it. */
  static String callback(String eventId, ObjectNode event) {
    ObjectNode body =
        JSON.createObjectNode()
            .put("token", "legacy")
            .put("team_id", "T1")
            .put("api_app_id", "A1")
            .put("type", "event_callback")
            .put("event_id", eventId)
            .put("event_time", Instant.now().getEpochSecond());
    body.set("event", event);
    body.putArray("authorizations")
        .addObject()
        .put("team_id", "T1")
        .put("user_id", FakeSlack.BOT_USER)
        .put("is_bot", true);
    return body.toString();
  }

  static ObjectNode mention(String channel, String user, String text, String ts) {
    return JSON.createObjectNode()
        .put("type", "app_mention")
        .put("user", user)
        .put("text", text)
        .put("ts", ts)
        .put("channel", channel)
        .put("event_ts", ts);
  }

  static ObjectNode direct(String channel, String user, String text, String ts) {
    return JSON.createObjectNode()
        .put("type", "message")
        .put("channel_type", "im")
        .put("user", user)
        .put("text", text)
        .put("ts", ts)
        .put("channel", channel)
        .put("event_ts", ts);
  }
}
