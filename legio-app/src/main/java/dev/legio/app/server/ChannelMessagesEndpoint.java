package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.log.Names;
import dev.legio.session.DispatchListener;
import dev.legio.session.Outcome;
import dev.legio.session.Reply;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code POST /api/v1/channels/{source}:{id}/messages}: a turn of that channel's session (created
 * on first use; the engine's pool keeps the limit, leases, idle expiry and context threshold), in
 * the role {@code [channels.roles]} maps its source to.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The channel key must be {@code source:id} as Legio names channels ({@code telegram:123}),
 *       else 400. A gateway token may post only to its own sources (else 403).
 *   <li>The optional {@code user} ({@code id}, {@code name}) says who speaks: see {@link Speaker}.
 *   <li>Answer: the reply, the channel's session id and its role; 409 when the session stayed busy
 *       past the wait.
 * </ul>
 */
final class ChannelMessagesEndpoint implements Endpoint {
  private final ServerParts parts;

  ChannelMessagesEndpoint(ServerParts parts) {
    this.parts = parts;
  }

  @Override
  public void handle(ApiExchange exchange) throws Exception {
    String channel = exchange.pathParam("channel");
    int colon = channel.indexOf(':');
    if (colon < 0 || !Names.isValid(channel)) {
      throw ApiException.badRequest(
          "'"
              + Printable.of(channel)
              + "' is not a channel: use source:id, e.g. /api/v1/channels/telegram:123/messages"
              + " (source: lowercase letters, digits, '-' or '_'; id: letters, digits, '-' or '_')");
    }
    String source = channel.substring(0, colon);
    if (!exchange.caller().mayPostTo(source)) {
      throw ApiException.forbidden(
          "token '"
              + exchange.caller().token()
              + "' may not post to source '"
              + source
              + "'; its sources: "
              + String.join(", ", exchange.caller().sources()));
    }
    JsonNode body = exchange.jsonBody();
    String text = Bodies.text(body, "text");
    Speaker speaker = Speaker.of(Bodies.optionalObject(body, "user"));
    Outcome outcome =
        Dispatch.run(
            () ->
                parts.engine().handleChannel(channel, speaker.prefix(text), DispatchListener.NONE));
    if (outcome.refusal() != null) {
      throw ApiException.badRequest(outcome.refusal());
    }
    Reply reply = outcome.replies().get(0);
    Map<String, Object> answer = new LinkedHashMap<>();
    if (Replies.busy(reply)) {
      answer.put("error", "the channel's session was busy past the wait; send the message again");
    }
    Map<String, Object> view = Replies.view(reply, parts.messageLog());
    view.remove("agent");
    view.remove("description");
    answer.put("reply", view);
    answer.put(
        "session_id",
        parts.sessions().find(channel).map(r -> r.sessionId().toString()).orElse(null));
    answer.put("role", parts.settings().channels().roleFor(source));
    answer.put("request", Views.request(outcome.request()));
    exchange.json(Replies.busy(reply) ? 409 : 200, answer);
  }
}
