package dev.legio.app.gateway.discord;

import dev.legio.app.gateway.webhook.GatewayStatus;
import dev.legio.app.gateway.webhook.InboxTurns;
import dev.legio.app.gateway.webhook.OwedReplies;
import dev.legio.app.gateway.webhook.OwedReply;
import dev.legio.app.gateway.webhook.PlatformCalls;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.backend.http.HttpFailure;
import dev.legio.store.gateway.GatewayInbox;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The answers to {@code /ask} that the process which took the interaction in sends with the
 * interaction's token, so that the answer replaces Discord's "thinking..." response.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>An interaction's token is held in this process's memory only (it is a credential, which
 *       Legio never writes to disk), for {@link DiscordGateway#INTERACTION_LIFETIME}. A process
 *       that did not take the {@code /ask} in (the next one after a kill or a drain, another node)
 *       has no token: it answers in the channel ({@link ChannelAnswer}).
 *   <li>With the token, the answer's first part replaces the deferred response and the others are
 *       follow-ups.
 *   <li>A token that ran out (Discord away past the 15 minutes) or that Discord refuses does not
 *       lose the answer: what is left of it goes to the channel as the bot's message, after a line
 *       naming the asker and their question, which pings them ({@link ChannelAnswer#intro}).
 *       Without a bot token it is dropped with a warning.
 *   <li>Once every part was sent, or refused for good, the {@code /ask} is forgotten ({@code sent}
 *       of {@link InboxTurns.FromThisProcess#take}).
 *   <li>A turn the shutdown cut ({@link #cut}) replaces "thinking..." with a note: the answer
 *       follows in the channel (the next process posts it), or, without a bot token, ask again (the
 *       {@code /ask} is forgotten at once, whether or not the note gets through: nothing could
 *       answer it). The note never goes to the channel.
 * </ul>
 */
final class InteractionAnswers implements InboxTurns.FromThisProcess, AutoCloseable {

  /** An interaction this process took in: its token, until when it works, who asked what. */
  private record Held(String token, Instant expires, String userId, String question) {}

  /** An answer being sent with its interaction's token. */
  private static final class Sending {
    final Held held;
    final int parts;
    final Runnable sent;
    final boolean inPlaceOnly; // a note about this interaction: pointless in the channel
    int done; // parts sent or dropped (only the outbox's thread changes it)
    boolean inChannel; // the token stopped working: the rest goes to the channel

    Sending(Held held, int parts, Runnable sent, boolean inPlaceOnly) {
      this.held = held;
      this.parts = parts;
      this.sent = sent;
      this.inPlaceOnly = inPlaceOnly;
    }
  }

  private final DiscordApi api;
  private final PlatformCalls calls;
  private final ChannelAnswer channel;
  private final Clock clock;
  private final Map<String, Held> held = new ConcurrentHashMap<>();
  private final Map<String, Sending> sending = new ConcurrentHashMap<>();
  private final ReplyOutbox outbox;
  private final boolean channelPossible;

  /** What replaces "thinking..." when the shutdown cut the turn and another process answers. */
  static final String CUT_ANSWER_FOLLOWS =
      "Legio is restarting and could not finish this answer here; it will follow in this channel.";

  /** What replaces "thinking..." when the shutdown cut the turn and no other process can answer. */
  static final String CUT_ASK_AGAIN =
      "Legio restarted before it could answer; please ask again in a moment.";

  /**
   * @param backoff how long the outbox of token replies waits between rounds while Discord cannot
   *     take one
   * @param channelPossible whether answers can be posted in channels (there is a bot token)
   */
  InteractionAnswers(
      DiscordApi api,
      PlatformCalls calls,
      ChannelAnswer channel,
      GatewayStatus status,
      ReplyOutbox.Backoff backoff,
      Clock clock,
      boolean channelPossible) {
    this.api = api;
    this.channelPossible = channelPossible;
    this.calls = calls;
    this.channel = channel;
    this.clock = clock;
    this.outbox =
        new ReplyOutbox(
            DiscordGateway.NAME, OwedReplies.inMemory(), new WithToken(), status, backoff, clock);
  }

  /** Holds the token of interaction {@code id}, about to be taken in, for its lifetime. */
  void hold(String id, String token, String userId, String question) {
    Instant now = clock.instant();
    held.values().removeIf(h -> now.isAfter(h.expires()));
    held.put(id, new Held(token, now.plus(DiscordGateway.INTERACTION_LIFETIME), userId, question));
  }

  @Override
  public boolean take(GatewayInbox.Message message, String answer, Runnable sent) {
    Held h = held.remove(message.messageKey());
    if (h == null || clock.instant().isAfter(h.expires())) {
      return false;
    }
    List<OwedReply> parts =
        OwedReply.answer(
            message.chatId(),
            h.token(),
            answer,
            DiscordGateway.MAX_CHARS,
            UnaryOperator.identity(),
            null);
    sending.put(h.token(), new Sending(h, parts.size(), sent, false));
    outbox.owe(parts);
    return true;
  }

  /**
   * The shutdown cut the turn of an {@code /ask} this process holds the token of: "thinking..." is
   * replaced with a note saying the answer follows in the channel (another process posts it), or,
   * without a bot token to post it with, asking to ask again (the {@code /ask} is then forgotten).
   */
  @Override
  public boolean cut(GatewayInbox.Message message, Runnable forget) {
    Held h = held.remove(message.messageKey());
    if (!channelPossible) {
      // Forgotten now, whether or not the note gets through: no process answers it but one given
      // a bot token later, which would answer a question asked who knows how long before.
      forget.run();
    }
    if (h != null && !clock.instant().isAfter(h.expires())) {
      say(message, h);
    }
    return !channelPossible;
  }

  /** Replaces "thinking..." with the note for a cut turn, with the interaction's token. */
  private void say(GatewayInbox.Message message, Held h) {
    String note = channelPossible ? CUT_ANSWER_FOLLOWS : CUT_ASK_AGAIN;
    sending.put(h.token(), new Sending(h, 1, () -> {}, true));
    outbox.owe(List.of(new OwedReply(0, message.chatId(), h.token(), 0, note, null)));
  }

  void start() {
    outbox.start();
  }

  /** How many token replies are still owed (they are answered again by the next process). */
  int owedCount() {
    return outbox.owedCount();
  }

  @Override
  public void close() {
    outbox.close();
  }

  /** One part of an answer: with the token while it works, else in the channel. */
  private final class WithToken implements ReplyOutbox.Platform {
    @Override
    public void send(OwedReply reply) {
      Sending s = sending.get(reply.thread());
      if (s == null) {
        return; // sent before
      }
      try {
        sendPart(reply, s);
      } catch (HttpFailure f) {
        if (!keep(f)) {
          partDone(reply.thread(), s); // dropped by the outbox
        }
        throw f;
      }
      partDone(reply.thread(), s);
    }

    private void sendPart(OwedReply reply, Sending s) {
      if (s.inPlaceOnly) {
        if (!clock.instant().isAfter(s.held.expires())) {
          calls.call(
              () -> {
                api.editOriginal(reply.thread(), reply.text());
                return null;
              });
        }
        return;
      }
      if (!s.inChannel && !clock.instant().isAfter(s.held.expires())) {
        try {
          calls.call(
              () -> {
                if (reply.part() == 0) {
                  api.editOriginal(reply.thread(), reply.text());
                } else {
                  api.followUp(reply.thread(), reply.text());
                }
                return null;
              });
          return;
        } catch (HttpFailure f) {
          if (!tokenRefused(f)) {
            throw f; // Discord unreachable or slow: kept, and sent with the token again
          }
        }
      }
      if (!s.inChannel) {
        channel.postIntro(reply.chat(), s.held.userId(), s.held.question());
        s.inChannel = true;
      }
      channel.post(reply.chat(), reply.text());
    }

    @Override
    public boolean keep(HttpFailure failure) {
      return channel.keep(failure);
    }

    @Override
    public String describe(HttpFailure failure) {
      return channel.describe(failure);
    }
  }

  private void partDone(String token, Sending s) {
    if (++s.done >= s.parts) {
      sending.remove(token);
      s.sent.run();
    }
  }

  /** True when Discord refused the interaction's token: it ran out, or is not the interaction's. */
  private static boolean tokenRefused(HttpFailure f) {
    return f.kind() == HttpFailure.Kind.AUTH || f.status() == 404;
  }
}
