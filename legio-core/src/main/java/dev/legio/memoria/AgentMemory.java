package dev.legio.memoria;

import java.util.List;

/**
 * An agent's rights over memoria. Its commentarii methods take no agent name: they reach the
 * commentarii of the agent this object was made for, and no other. A write checks again that the
 * agent still is one ({@code centuriones/NAME/prompt.md}): a process serving an agent the operator
 * removed since (a running {@code legio mcp --agent NAME}) is refused, and never creates the
 * agent's folder again.
 */
public final class AgentMemory extends MemoryAccess {
  AgentMemory(Memoria memoria, String agent) {
    super(memoria, agent);
  }

  /** The agent whose memory this is. */
  public String agent() {
    return caller;
  }

  public List<MemoryEntry> listCommentarii() {
    return memoria.store().list(MemoryKind.COMMENTARII, caller);
  }

  public MemoryEntry readCommentarium(String name) {
    return get(MemoryKind.COMMENTARII, caller, name);
  }

  /** Writes to the agent's own commentarii; an existing commentarium gets a new note. */
  public MemoryEntry writeCommentarium(String name, String text) {
    return append(MemoryKind.COMMENTARII, memoria.requireCenturio(caller), name, text);
  }

  @Override
  List<MemoryEntry> readableCommentarii() {
    return listCommentarii();
  }
}
