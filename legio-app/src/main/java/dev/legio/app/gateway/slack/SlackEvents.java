package dev.legio.app.gateway.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.app.conversation.Speaker;
import dev.legio.app.gateway.webhook.GatewayStatus;
import dev.legio.app.gateway.webhook.RefusalLog;
import dev.legio.app.gateway.webhook.WebhookHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpFields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /gateways/slack/events}: Slack's Events API (its "Events API" and "Verifying requests
 * from Slack" guides).
 *
 * <p>Rules, in the order they apply:
 *
 * <ol>
 *   <li>Every request must carry Slack's signature ({@link SlackSignature}); any other gets 401 and
 *       nothing else happens. Without a signing secret every request gets 401.
 *   <li>{@code url_verification} is answered with its {@code challenge}.
 *   <li>{@code event_callback}: an {@code app_mention}, or a {@code message} in an {@code im} (not
 *       from a bot, with no {@code subtype}: no edits, joins or bot posts), is a message for the
 *       app; everything else is acknowledged and dropped.
 *   <li>A message is taken in once per {@code event_id} and once per message (channel and {@code
 *       ts}), both remembered for {@link #KEEP}: Slack's retries ({@code X-Slack-Retry-Num}) run no
 *       second turn, after a restart or on another node either, and an {@code app_mention} and a
 *       {@code message.im} of the same message, two events, run one turn. Taking in ({@link
 *       Intake}) keeps the message in Legio's database before Slack is answered, so a process
 *       killed during its turn leaves it to be answered by the next.
 *   <li>Slack gets its 200 at once (it wants one within 3 seconds); the turn runs after. When the
 *       message cannot be taken in (the database is away), Slack gets 500 and delivers it again.
 * </ol>
 */
final class SlackEvents extends WebhookHandler {
  private static final Logger log = LoggerFactory.getLogger(SlackEvents.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How long an event id is remembered (Slack retries for about an hour at most). */
  static final Duration KEEP = Duration.ofDays(1);

  /** A message for the app: where it came from, who said it, its text, the thread to answer in. */
  record Message(String channel, Speaker speaker, String text, String ts, String threadTs) {
    /** Its id in the gateway: its channel and {@code ts}, else the event's id. */
    String key(String eventId) {
      return ts.isEmpty() ? "event:" + eventId : "channel:" + channel + ":ts:" + ts;
    }
  }

  /** Where a message for the app goes. */
  @FunctionalInterface
  interface Intake {
    /**
     * Takes {@code message} in, delivered under {@code deliveryIds}; false when it was taken in
     * before.
     */
    boolean takeIn(Message message, String eventId, List<String> deliveryIds);
  }

  private final SlackSignature signature;
  private final RefusalLog refusals;
  private final GatewayStatus status;
  private final Supplier<String> botUserId;
  private final Intake intake;

  SlackEvents(
      SlackSignature signature,
      RefusalLog refusals,
      GatewayStatus status,
      Supplier<String> botUserId,
      Intake intake) {
    this.signature = signature;
    this.refusals = refusals;
    this.status = status;
    this.botUserId = botUserId;
    this.intake = intake;
  }

  @Override
  protected Answer answer(HttpFields headers, byte[] body) {
    if (signature == null) {
      return Answer.error(401, "the Slack gateway has no signing secret set; see legio's status");
    }
    Optional<String> problem =
        signature.problem(
            headers.get("X-Slack-Request-Timestamp"), headers.get("X-Slack-Signature"), body);
    if (problem.isPresent()) {
      refusals.refused(problem.get());
      return Answer.error(401, problem.get());
    }
    JsonNode payload;
    try {
      payload = JSON.readTree(body);
    } catch (IOException e) {
      return Answer.error(400, "the body is not JSON");
    }
    if (payload == null || !payload.isObject()) {
      return Answer.error(400, "the body is not a JSON object");
    }
    String type = payload.path("type").asText("");
    if (type.equals("url_verification")) {
      ObjectNode answer =
          JSON.createObjectNode().put("challenge", payload.path("challenge").asText(""));
      return new Answer(200, answer.toString());
    }
    if (type.equals("event_callback")) {
      take(payload, headers.get("X-Slack-Retry-Num"));
    }
    return new Answer(200, "{}");
  }

  private void take(JsonNode payload, String retry) {
    JsonNode event = payload.path("event");
    Optional<Message> message = messageOf(event, botId(payload));
    if (message.isEmpty()) {
      return;
    }
    String eventId = payload.path("event_id").asText("");
    if (eventId.isEmpty()) {
      log.warn("gateway slack: an event without event_id was dropped");
      return;
    }
    Message m = message.get();
    List<String> deliveryIds =
        m.ts().isEmpty()
            ? List.of(eventId)
            : List.of(eventId, "message " + m.channel() + " " + m.ts());
    if (!intake.takeIn(m, eventId, deliveryIds)) {
      log.info(
          "gateway slack: event {} (retry {}) is a message taken in before; not run again",
          eventId,
          retry);
      return;
    }
    status.received();
  }

  /** The app's own user id: from auth.test, else from the event's authorizations. */
  private String botId(JsonNode payload) {
    String known = botUserId.get();
    if (known != null) {
      return known;
    }
    JsonNode authorizations = payload.path("authorizations");
    return authorizations.isArray() && !authorizations.isEmpty()
        ? authorizations.get(0).path("user_id").asText(null)
        : null;
  }

  /** The message for the app this event is, if it is one. */
  static Optional<Message> messageOf(JsonNode event, String botUserId) {
    String type = event.path("type").asText("");
    boolean mention = type.equals("app_mention");
    boolean direct =
        type.equals("message")
            && event.path("channel_type").asText("").equals("im")
            && !event.has("subtype");
    if (!mention && !direct) {
      return Optional.empty();
    }
    String user = event.path("user").asText("");
    String channel = event.path("channel").asText("");
    if (event.hasNonNull("bot_id")
        || user.isEmpty()
        || user.equals(botUserId)
        || !channel.matches("[A-Za-z0-9]{1,40}")) {
      return Optional.empty();
    }
    String text =
        SlackText.unescape(
            SlackText.withoutLeadingMention(event.path("text").asText(""), botUserId));
    if (text.isBlank()) {
      return Optional.empty();
    }
    String ts = event.path("ts").asText("");
    String thread = event.path("thread_ts").asText(ts);
    JsonNode profile = event.path("user_profile");
    String name = profile.path("display_name").asText("");
    if (name.isBlank()) {
      name = profile.path("real_name").asText("");
    }
    return Optional.of(
        new Message(channel, Speaker.of(user, name.isBlank() ? null : name), text, ts, thread));
  }
}
