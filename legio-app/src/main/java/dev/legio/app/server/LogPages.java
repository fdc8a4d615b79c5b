package dev.legio.app.server;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.log.Names;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads every message of the log in a range of sequences, oldest first, in pages: a window of
 * {@link #PAGE} sequences holds at most {@link #PAGE} messages, so no page is cut short and none is
 * skipped, whatever the gaps between sequences.
 */
final class LogPages {
  static final int PAGE = 500;

  private LogPages() {}

  /** Every message caesar sees with {@code after < sequence <= upTo}, oldest first. */
  static void forEach(MessageLog log, long after, long upTo, Consumer<Message> each) {
    long from = after;
    while (from < upTo) {
      long to = Math.min(upTo, from + PAGE);
      List<Message> page = log.visibleTo(Names.CAESAR, from, to + 1, PAGE);
      page.forEach(each);
      from = to;
    }
  }
}
