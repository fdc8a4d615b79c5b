package dev.legio.session;

import java.util.Objects;

/**
 * Where a live session's back-end conversation is: the back-end's kind, and the node that ran the
 * session's last turn (its {@code LEGIO_NODE_NAME}, else its host name). For a back-end whose
 * conversations live on a node's own disk (the Claude Code CLI), only that node can resume it.
 */
public record ConversationHome(String backend, String node) {
  public ConversationHome {
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(node, "node");
  }
}
