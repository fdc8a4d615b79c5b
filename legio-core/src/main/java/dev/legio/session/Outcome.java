package dev.legio.session;

import dev.legio.log.Message;
import java.util.List;

/**
 * What became of one message from the user.
 *
 * @param request the message as logged; null when it was refused before logging
 * @param replies one per agent it went to, in the order they were named
 * @param refusal why the message was refused (an unknown agent, say); null when it was dispatched
 */
public record Outcome(Message request, List<Reply> replies, String refusal) {

  static Outcome refused(String why) {
    return new Outcome(null, List.of(), why);
  }

  /** True when the message was dispatched and every agent answered. */
  public boolean ok() {
    return refusal == null && replies.stream().noneMatch(Reply::failed);
  }
}
