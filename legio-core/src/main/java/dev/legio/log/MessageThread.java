package dev.legio.log;

import java.util.ArrayList;
import java.util.List;

/**
 * A message in its conversation.
 *
 * @param ancestors the reply_to chain above the message, the root first
 * @param message the message asked for
 * @param replies every message below it (replies, replies to replies, ...), in log order
 */
public record MessageThread(List<Message> ancestors, Message message, List<Message> replies) {
  public MessageThread {
    ancestors = List.copyOf(ancestors);
    replies = List.copyOf(replies);
  }

  /** The whole thread in log order: ancestors, the message, its replies. */
  public List<Message> all() {
    List<Message> all = new ArrayList<>(ancestors.size() + 1 + replies.size());
    all.addAll(ancestors);
    all.add(message);
    all.addAll(replies);
    return all;
  }
}
