package dev.legio.app.gateway.telegram;

import dev.legio.app.conversation.Conversations;
import dev.legio.app.conversation.Speaker;
import dev.legio.app.conversation.UnknownAgentsException;
import dev.legio.log.Names;
import dev.legio.session.DispatchListener;
import dev.legio.session.InterruptionNote;
import dev.legio.session.Outcome;
import dev.legio.session.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What Legio answers to one Telegram message, through the paths every door shares ({@link
 * Conversations}); each answer is one reply message, before splitting.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>An operator (a user id in {@code [gateways.telegram] operators}) in a private chat is
 *       caesar: {@code @mentions} route as in {@code legio say}, each agent's reply is its own
 *       message under its attribution header ({@code ⚔️ vorenus — description}), and {@code
 *       /history [N]}, {@code /reset NAME|all}, {@code /status} answer as {@code legio chat} does
 *       (in a code block, so tables keep their columns).
 *   <li>Anyone else, and every group, talks to the channel session {@code telegram:{chat_id}}, with
 *       the sender's user id and name as its {@link Speaker}; the channel's role is the one {@code
 *       [channels.roles] telegram} gives. Slash commands are text there.
 *   <li>A refusal (unknown agent, empty or too long text, a session busy past the wait) is answered
 *       with the reason; nothing else is lost.
 *   <li>A turn Legio's shutdown cut is no answer ({@link TurnCutByShutdown}): the message is left
 *       to the next process.
 *   <li>A message is one request however often Telegram delivers it ({@link Incoming#requestKey}):
 *       taken again after a crash, it is not logged again, and an agent that had answered it is not
 *       asked again.
 * </ul>
 */
final class TelegramTurns {
  static final String COMMANDS = "/history [N], /reset NAME|all, /status";

  private final Conversations conversations;
  private final OperatorCommands commands;
  private final Set<Long> operators;

  TelegramTurns(Conversations conversations, OperatorCommands commands, Set<Long> operators) {
    this.conversations = conversations;
    this.commands = commands;
    this.operators = Set.copyOf(operators);
  }

  boolean fromOperator(Incoming in) {
    return in.privateChat() && operators.contains(in.userId());
  }

  /**
   * The reply messages to {@code in}, in sending order.
   *
   * @throws TurnCutByShutdown when Legio's shutdown cut a turn it ran: the message is left to the
   *     next process
   */
  List<String> answer(Incoming in, DispatchListener listener) {
    if (fromOperator(in)) {
      String text = in.text().strip();
      if (text.startsWith("/")) {
        return List.of(command(text));
      }
      return asCaesar(in, listener);
    }
    return inChannel(in, listener);
  }

  private String command(String text) {
    String[] words = text.split("\\s+");
    // Telegram adds the bot's name in groups and menus: /status@legio_bot
    int at = words[0].indexOf('@');
    words[0] = (at < 0 ? words[0] : words[0].substring(0, at)).toLowerCase(Locale.ROOT);
    try {
      return switch (words[0]) {
        case "/history" -> block(commands.history(words));
        case "/reset" -> commands.reset(words);
        case "/status" -> block(commands.status());
        case "/start", "/help" ->
            "You are caesar here. Write to the legatus, or @name an agent (@vorenus @pullo: both)."
                + " Commands: "
                + COMMANDS;
        default -> "Unknown command " + words[0] + ". Commands: " + COMMANDS;
      };
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  private static String block(String text) {
    return "```\n" + text.stripTrailing() + "\n```";
  }

  private List<String> asCaesar(Incoming in, DispatchListener listener) {
    Outcome outcome;
    try {
      outcome = conversations.fromCaesar(in.text(), listener, in.requestKey());
    } catch (UnknownAgentsException e) {
      return List.of("Refused: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      return List.of("Refused: " + e.getMessage());
    }
    if (outcome.refusal() != null) {
      return List.of("Refused: " + outcome.refusal());
    }
    List<String> out = new ArrayList<>();
    for (Reply reply : outcome.replies()) {
      if (InterruptionNote.isNote(outcome, reply)) {
        throw new TurnCutByShutdown(Names.CAESAR + " → " + reply.agent());
      }
      if (Conversations.busy(reply)) {
        out.add(reply.agent() + " is busy with another request; send it again in a moment.");
      } else {
        out.add(reply.header() + "\n" + reply.text());
      }
    }
    return out;
  }

  private List<String> inChannel(Incoming in, DispatchListener listener) {
    Conversations.ChannelTurn turn;
    try {
      turn =
          conversations.inChannel(
              in.channel(),
              Speaker.of(in.userId() == 0 ? null : Long.toString(in.userId()), in.userName()),
              in.text(),
              listener,
              in.requestKey());
    } catch (IllegalArgumentException e) {
      return List.of("Refused: " + e.getMessage());
    }
    Reply reply = turn.reply();
    if (reply != null && InterruptionNote.isNote(turn.outcome(), reply)) {
      throw new TurnCutByShutdown(in.channel());
    }
    if (reply == null) {
      String why = turn.outcome().refusal();
      return List.of("Refused: " + (why == null ? "no answer" : why));
    }
    if (Conversations.busy(reply)) {
      return List.of("Busy with another message; send it again in a moment.");
    }
    return List.of(reply.text());
  }
}
