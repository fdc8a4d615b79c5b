package dev.legio.app.gateway.webhook;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One message a gateway owes its platform, as the platform takes it.
 *
 * @param id its place in the gateway's {@link OwedReplies} (assigned there; 0 before it is kept)
 * @param chat where it goes: Slack's channel, Discord's channel
 * @param thread where in the chat: Slack's {@code thread_ts}; Discord's interaction token (which is
 *     why Discord's replies stay in memory); null for the chat itself
 * @param part its index among the messages of one answer (Discord edits the deferred response with
 *     part 0 and sends the rest as follow-ups)
 * @param text the text, already escaped and cut to the platform's limit
 * @param deadline when it can no longer be delivered (Discord: 15 minutes after the {@code /ask});
 *     null when it never expires
 * @param pingUser the platform's id of the one user it may ping, whatever its text names (Discord:
 *     the asker, on the line Legio writes before an answer posted in the channel); null, as for
 *     every other reply: it pings no one
 */
public record OwedReply(
    long id, String chat, String thread, int part, String text, Instant deadline, String pingUser) {

  /** A reply that pings no one. */
  public OwedReply(long id, String chat, String thread, int part, String text, Instant deadline) {
    this(id, chat, thread, part, text, deadline, null);
  }

  /**
   * The messages of one answer to {@code chat} (and {@code thread}): cut at {@code maxChars} by
   * {@link ReplySplitter}, each part passed through {@code escape}; a blank answer says so, since
   * platforms refuse an empty message.
   */
  public static List<OwedReply> answer(
      String chat,
      String thread,
      String answer,
      int maxChars,
      UnaryOperator<String> escape,
      Instant deadline) {
    List<OwedReply> parts = new ArrayList<>();
    for (String part : ReplySplitter.split(answer.isBlank() ? "(no answer)" : answer, maxChars)) {
      parts.add(new OwedReply(0, chat, thread, parts.size(), escape.apply(part), deadline));
    }
    return parts;
  }

  /** The same reply, kept as {@code id}. */
  public OwedReply withId(long id) {
    return new OwedReply(id, chat, thread, part, text, deadline, pingUser);
  }

  /** True when it can no longer be delivered at {@code now}. */
  public boolean expiredAt(Instant now) {
    return deadline != null && now.isAfter(deadline);
  }
}
