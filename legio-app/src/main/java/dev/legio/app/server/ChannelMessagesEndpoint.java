package dev.legio.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.legio.app.conversation.Conversations;
import dev.legio.app.conversation.Speaker;
import dev.legio.session.DispatchListener;
import dev.legio.session.InterruptionNote;
import dev.legio.session.Outcome;
import dev.legio.session.Reply;
import dev.legio.session.RequestKey;
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
 *   <li>An {@code Idempotency-Key} makes sending the message again safe ({@link IdempotencyKeys}).
 *   <li>Answer: the reply, the channel's session id and its role; 409 when the session stayed busy
 *       past the wait; 503 when Legio's shutdown cut the turn (the note it logged is no answer:
 *       sent again under the same {@code Idempotency-Key}, the request is logged once and its turn
 *       runs again).
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
    Conversations.channelKeyProblem(channel)
        .ifPresent(
            problem -> {
              throw ApiException.badRequest(
                  problem + "; post to /api/v1/channels/telegram:123/messages");
            });
    String source = channel.substring(0, channel.indexOf(':'));
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
    JsonNode user = Bodies.optionalObject(body, "user");
    Speaker speaker =
        user == null
            ? Speaker.NONE
            : Speaker.of(
                Bodies.optionalId(user, "id", "user.id"),
                Bodies.optionalString(user, "name", "user.name"));
    RequestKey key = IdempotencyKeys.of(exchange);
    exchange.afterEngine(
        () ->
            Dispatch.run(
                () ->
                    parts
                        .conversations()
                        .inChannel(channel, speaker, text, DispatchListener.NONE, key)),
        turn -> answer(exchange, channel, turn, key));
  }

  private void answer(
      ApiExchange exchange, String channel, Conversations.ChannelTurn turn, RequestKey key)
      throws java.io.IOException {
    Outcome outcome = turn.outcome();
    if (outcome.refusal() != null) {
      throw ApiException.badRequest(outcome.refusal());
    }
    Reply reply = turn.reply();
    if (reply != null && InterruptionNote.isNote(outcome, reply)) {
      Map<String, Object> cut = new LinkedHashMap<>();
      cut.put("error", CutByShutdownError.of(channel, key));
      cut.put("request", Views.request(outcome.request()));
      exchange.json(503, cut);
      return;
    }
    boolean busy = Conversations.busy(reply);
    Map<String, Object> answer = new LinkedHashMap<>();
    if (busy) {
      answer.put("error", "the channel's session was busy past the wait; send the message again");
    }
    Map<String, Object> view = Replies.view(reply, parts.messageLog());
    view.remove("agent");
    view.remove("description");
    answer.put("reply", view);
    answer.put(
        "session_id",
        parts.sessions().find(channel).map(r -> r.sessionId().toString()).orElse(null));
    answer.put("role", turn.role());
    answer.put("request", Views.request(outcome.request()));
    exchange.json(busy ? 409 : 200, answer);
  }
}
