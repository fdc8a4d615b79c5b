package dev.legio.app.gateway.discord;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.conversation.Speaker;
import dev.legio.app.gateway.webhook.GatewayStatus;
import dev.legio.app.gateway.webhook.RefusalLog;
import dev.legio.app.gateway.webhook.WebhookHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /gateways/discord/interactions}: Discord's Interactions over HTTP (its "Receiving and
 * Responding" guide).
 *
 * <p>Rules, in the order they apply:
 *
 * <ol>
 *   <li>Every request must carry a valid, fresh signature ({@link DiscordSignature}); any other
 *       gets 401 and nothing else happens. Without a valid public key every request gets 401.
 *   <li>{@code PING} (type 1) is answered {@code {"type": 1}} (PONG).
 *   <li>The slash command {@code /ask text:...} (type 2) is taken in once per interaction id (by
 *       the gateway's {@link Intake}, so a replayed request runs no second turn) and answered at
 *       once with a deferred response (type 5, "thinking..."); its turn runs after, and the answer
 *       replaces the deferred response.
 *   <li>Another command, or an {@code /ask} without text, gets an ephemeral message saying what
 *       works.
 * </ol>
 */
final class DiscordInteractions extends WebhookHandler {
  private static final Logger log = LoggerFactory.getLogger(DiscordInteractions.class);

  static final int PING = 1;
  static final int APPLICATION_COMMAND = 2;
  static final int PONG = 1;
  static final int CHANNEL_MESSAGE = 4;
  static final int DEFERRED_CHANNEL_MESSAGE = 5;
  static final int EPHEMERAL = 1 << 6;

  /** How long an interaction id is remembered (its token lives 15 minutes). */
  static final Duration KEEP = Duration.ofHours(1);

  /**
   * What an interaction's token may hold: it becomes a segment of the follow-up URL, so nothing
   * that could change the URL ({@code /}, {@code ?}, {@code #}, {@code %}, a space) and no {@code
   * .} or {@code ..} segment. Discord's tokens are letters, digits, {@code -}, {@code _} and {@code
   * .}.
   */
  static final java.util.regex.Pattern INTERACTION_TOKEN =
      java.util.regex.Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,999}");

  /**
   * An {@code /ask}: the interaction's id (empty when Discord sent none), where, who, what, and the
   * token to answer with.
   */
  record Ask(String id, String channelId, Speaker speaker, String text, String token) {}

  /** Where an {@code /ask} goes. */
  @FunctionalInterface
  interface Intake {
    /** Takes {@code ask} in and starts its turn; false when it was taken in before. */
    boolean takeIn(Ask ask);
  }

  private final DiscordSignature signature;
  private final RefusalLog refusals;
  private final GatewayStatus status;
  private final Intake intake;

  DiscordInteractions(
      DiscordSignature signature, RefusalLog refusals, GatewayStatus status, Intake intake) {
    this.signature = signature;
    this.refusals = refusals;
    this.status = status;
    this.intake = intake;
  }

  @Override
  protected Answer answer(HttpFields headers, byte[] body) {
    if (signature == null) {
      return Answer.error(401, "the Discord gateway has no valid public key; see legio's status");
    }
    Optional<String> problem =
        signature.problem(
            headers.get("X-Signature-Timestamp"), headers.get("X-Signature-Ed25519"), body);
    if (problem.isPresent()) {
      refusals.refused(problem.get());
      return Answer.error(401, problem.get());
    }
    JsonNode interaction;
    try {
      interaction = DiscordApi.JSON.readTree(body);
    } catch (IOException e) {
      return Answer.error(400, "the body is not JSON");
    }
    if (interaction == null || !interaction.isObject()) {
      return Answer.error(400, "the body is not a JSON object");
    }
    int type = interaction.path("type").asInt();
    if (type == PING) {
      return new Answer(200, "{\"type\":" + PONG + "}");
    }
    if (type != APPLICATION_COMMAND) {
      return ephemeral("Legio answers the slash command /ask only.");
    }
    Optional<Ask> ask = askOf(interaction);
    if (ask.isEmpty()) {
      return ephemeral("Use /ask text:<your question>.");
    }
    if (intake.takeIn(ask.get())) {
      status.received();
    } else {
      log.info("gateway discord: interaction {} seen before; not run again", ask.get().id());
    }
    return new Answer(200, "{\"type\":" + DEFERRED_CHANNEL_MESSAGE + "}");
  }

  private static Answer ephemeral(String text) {
    var body = DiscordApi.JSON.createObjectNode().put("type", CHANNEL_MESSAGE);
    var data = DiscordApi.message(text, AllowedMentions.NOBODY);
    data.put("flags", EPHEMERAL);
    body.set("data", data);
    return new Answer(200, body.toString());
  }

  /** The {@code /ask} this interaction is, if it is one with a text. */
  static Optional<Ask> askOf(JsonNode interaction) {
    JsonNode data = interaction.path("data");
    if (!data.path("name").asText("").equals("ask")) {
      return Optional.empty();
    }
    String text = null;
    for (JsonNode option : data.path("options")) {
      if (option.path("name").asText("").equals("text")) {
        text = option.path("value").asText("");
      }
    }
    String channel = interaction.path("channel_id").asText("");
    if (channel.isEmpty()) {
      channel = interaction.path("channel").path("id").asText("");
    }
    String token = interaction.path("token").asText("");
    if (text == null
        || text.isBlank()
        || !channel.matches("\\d{1,25}")
        || !INTERACTION_TOKEN.matcher(token).matches()) {
      return Optional.empty();
    }
    JsonNode user = interaction.path("member").path("user");
    if (user.isMissingNode()) {
      user = interaction.path("user");
    }
    String name = user.path("global_name").asText("");
    if (name.isBlank()) {
      name = user.path("username").asText("");
    }
    return Optional.of(
        new Ask(
            interaction.path("id").asText(""),
            channel,
            Speaker.of(user.path("id").asText(null), name.isBlank() ? null : name),
            text,
            token));
  }
}
