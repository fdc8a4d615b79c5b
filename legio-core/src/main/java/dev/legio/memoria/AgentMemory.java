package dev.legio.memoria;

import java.util.List;

/**
 * An agent's rights over memoria. Its commentarii methods take no agent name: they reach the
 * commentarii of the agent this object was made for, and no other.
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
    return append(MemoryKind.COMMENTARII, caller, name, text);
  }

  @Override
  List<MemoryEntry> readableCommentarii() {
    return listCommentarii();
  }
}
