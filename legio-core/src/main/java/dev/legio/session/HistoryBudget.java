package dev.legio.session;

import dev.legio.log.Message;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How much of the log a turn carries, so that history alone never fills a session: without it one
 * large message (a pasted file) went into every fresh session whole, its first turn passed {@code
 * max_input_tokens}, the next turn rebuilt the session, which carried the same message again, and
 * so on; a reset did not help.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>The messages a turn carries hold together at most half of the session's {@code
 *       max_input_tokens}, counted at {@value #CHARACTERS_PER_TOKEN} characters a token (300,000
 *       characters at the default 150,000 tokens): the newest that fit, oldest first; the older
 *       ones are left out.
 *   <li>One message holds at most a quarter of that: a longer one is cut, with a note saying how
 *       much was left out and that the whole message is in the praetorium, under its id.
 *   <li>The request itself is not history: it is never cut here.
 * </ul>
 */
final class HistoryBudget {
  /** A rough count of characters a token, as the log's readers reckon without a tokenizer. */
  static final int CHARACTERS_PER_TOKEN = 4;

  private final long total;
  private final long perMessage;

  private HistoryBudget(long total) {
    this.total = total;
    this.perMessage = total / 4;
  }

  /** The budget of a session rebuilt past {@code maxInputTokens}. */
  static HistoryBudget of(long maxInputTokens) {
    return new HistoryBudget(maxInputTokens * CHARACTERS_PER_TOKEN / 2);
  }

  /** What a turn carries of {@code messages} (oldest first), oldest first. */
  List<Message> fit(List<Message> messages) {
    List<Message> kept = new ArrayList<>(messages.size());
    long used = 0;
    for (int i = messages.size() - 1; i >= 0; i--) {
      Message m = cut(messages.get(i));
      if (used + m.text().length() > total) {
        break;
      }
      used += m.text().length();
      kept.add(m);
    }
    Collections.reverse(kept);
    return kept;
  }

  private Message cut(Message m) {
    String text = m.text();
    if (text.length() <= perMessage) {
      return m;
    }
    int end = (int) perMessage;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    String note =
        "\n\n[… "
            + (text.length() - end)
            + " more characters not shown here: the whole message is in the praetorium, nuntius "
            + m.id()
            + "]";
    return new Message(
        m.sequence(),
        m.id(),
        m.sender(),
        text.substring(0, end) + note,
        m.audience(),
        m.timestamp(),
        m.replyTo());
  }
}
