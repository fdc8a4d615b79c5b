package dev.legio.app.gateway.discord;

import dev.legio.app.gateway.webhook.OwedReply;
import dev.legio.app.gateway.webhook.PlatformCalls;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.backend.http.HttpFailure;
import dev.legio.store.gateway.GatewayInbox;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * An answer to {@code /ask} posted in its channel as the bot's message, for when the interaction's
 * token is not at hand: the process that took the {@code /ask} in stopped before answering (a kill,
 * a drain that cut the turn, a node lost: the next process runs the turn again), or the token ran
 * out or was refused ({@link InteractionAnswers}).
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The answer comes after a line that names the asker and quotes the start of their question
 *       ({@link #intro}), since it does not replace the "thinking..." response where they asked.
 *   <li>That line, in a message of its own, pings the asker and no one else, so they learn their
 *       answer arrived ({@link AllowedMentions#only}; only when their id is a snowflake): not the
 *       users, roles or {@code @everyone} their question names. The answer's messages, which the
 *       model wrote, ping no one, whatever they name.
 *   <li>These replies hold no credential, so they are kept in Legio's database ({@code
 *       gateway_outbox}) until Discord takes them.
 *   <li>Kept and sent again: Discord unreachable, slow, or refusing the bot token (401, fixed by a
 *       restart with the right one). Dropped with a warning: a channel the bot may not post in
 *       (403), one that is gone (404), no bot token.
 * </ul>
 */
final class ChannelAnswer implements ReplyOutbox.Platform {
  /** How much of the question the intro quotes. */
  static final int QUOTED_CHARS = 300;

  private final DiscordApi api;
  private final PlatformCalls calls;
  private final Function<HttpFailure, String> describe;

  /**
   * @param describe what a user reads for a failure of the bot's calls (the gateway's wording)
   */
  ChannelAnswer(DiscordApi api, PlatformCalls calls, Function<HttpFailure, String> describe) {
    this.api = api;
    this.calls = calls;
    this.describe = describe;
  }

  /** The replies that answer {@code message} in its channel: the intro, then the answer. */
  static List<OwedReply> of(GatewayInbox.Message message, String answer) {
    List<OwedReply> replies = new ArrayList<>();
    replies.add(
        new OwedReply(
            0,
            message.chatId(),
            null,
            0,
            intro(message.userId(), message.text()),
            null,
            AllowedMentions.only(message.userId()).user()));
    for (OwedReply part :
        OwedReply.answer(
            message.chatId(),
            null,
            answer,
            DiscordGateway.MAX_CHARS,
            UnaryOperator.identity(),
            null)) {
      replies.add(
          new OwedReply(0, part.chat(), null, replies.size(), part.text(), part.deadline()));
    }
    return replies;
  }

  /**
   * The line before an answer posted in the channel: who asked (a mention, when their id is a
   * Discord id) and the start of what, quoted line by line.
   */
  static String intro(String userId, String question) {
    String who = AllowedMentions.isSnowflake(userId) ? "<@" + userId + ">, here" : "Here";
    int cut = QUOTED_CHARS;
    if (question.length() > cut && Character.isHighSurrogate(question.charAt(cut - 1))) {
      cut--; // not half of a character outside the BMP (an emoji), which would be sent as '?'
    }
    String start =
        question.length() > QUOTED_CHARS
            ? question.substring(0, cut).strip() + " …"
            : question.strip();
    StringBuilder text =
        new StringBuilder(who)
            .append(
                " is the answer to your /ask (Legio restarted, or Discord was away too long, before it"
                    + " could be given where you asked):");
    for (String line : start.split("\n")) {
      text.append("\n> ").append(line);
    }
    return text.toString();
  }

  /**
   * Posts {@code text} in channel {@code channelId}, pinging no one, retrying as {@link
   * PlatformCalls} says.
   */
  void post(String channelId, String text) {
    post(channelId, text, AllowedMentions.NOBODY);
  }

  /** Posts the {@link #intro} of an answer in channel {@code channelId}, pinging the asker. */
  void postIntro(String channelId, String userId, String question) {
    post(channelId, intro(userId, question), AllowedMentions.only(userId));
  }

  private void post(String channelId, String text, AllowedMentions pings) {
    calls.call(
        () -> {
          api.createMessage(channelId, text, pings);
          return null;
        });
  }

  @Override
  public void send(OwedReply reply) {
    post(reply.chat(), reply.text(), AllowedMentions.only(reply.pingUser()));
  }

  @Override
  public boolean keep(HttpFailure failure) {
    return failure.kind().retryable() || failure.status() == 401;
  }

  @Override
  public String describe(HttpFailure failure) {
    if (failure.status() == 403) {
      return "the bot may not post in this channel ("
          + failure.getMessage()
          + "): add the bot to the server and let it Send Messages there";
    }
    if (failure.status() == 404) {
      return "the channel is gone (" + failure.getMessage() + ")";
    }
    return describe.apply(failure);
  }
}
