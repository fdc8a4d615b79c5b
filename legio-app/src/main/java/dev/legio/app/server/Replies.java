package dev.legio.app.server;

import dev.legio.log.Message;
import dev.legio.log.MessageLog;
import dev.legio.session.Reply;
import java.util.Map;

/**
 * A reply as the API shows it, with its logged sequence; and whether it is the engine's "busy"
 * answer (the session was busy past {@code lock_wait_seconds}: 409).
 */
final class Replies {
  private Replies() {}

  static Map<String, Object> view(Reply reply, MessageLog log) {
    Long sequence = reply.sequence();
    if (sequence == null && reply.messageId() != null) {
      sequence = log.find(reply.messageId()).map(Message::sequence).orElse(null);
    }
    return Views.reply(reply, sequence);
  }
}
