package dev.legio.memoria;

import java.util.ArrayList;
import java.util.List;

/**
 * The legatus's rights over memoria (also caesar's, the operator's): an agent's, plus edicta, every
 * agent's commentarii (named by the caller) and clearing entries.
 */
public final class LegatusMemory extends MemoryAccess {
  LegatusMemory(Memoria memoria, String caller) {
    super(memoria, caller);
  }

  public MemoryEntry publishEdictum(String name, String text) {
    return append(MemoryKind.EDICTA, null, name, text);
  }

  /** Revokes an edictum in force; it stays readable, marked revoked, with who, when and why. */
  public MemoryEntry revokeEdictum(String name, String reason) {
    EntryNames.require(name, "edictum name");
    String why = reason == null ? "" : MemoryXml.requireText(reason, "the reason", 4096);
    MemoryEntry.Revocation revocation = new MemoryEntry.Revocation(caller, memoria.now(), why);
    get(MemoryKind.EDICTA, null, name); // a clear error when there is no such edictum
    return memoria
        .store()
        .update(
            MemoryKind.EDICTA,
            null,
            name,
            current -> {
              if (current == null) {
                throw new MemoryException("no edictum named '" + name + "'");
              }
              if (current.revoked()) {
                throw new MemoryException(
                    "the edictum '"
                        + name
                        + "' was already revoked by "
                        + current.revocation().by());
              }
              return current.revokedBy(revocation);
            });
  }

  public List<MemoryEntry> listCommentarii(String centurio) {
    return memoria.store().list(MemoryKind.COMMENTARII, memoria.requireCenturio(centurio));
  }

  public MemoryEntry readCommentarium(String centurio, String name) {
    return get(MemoryKind.COMMENTARII, memoria.requireCenturio(centurio), name);
  }

  public MemoryEntry writeCommentarium(String centurio, String name, String text) {
    return append(MemoryKind.COMMENTARII, memoria.requireCenturio(centurio), name, text);
  }

  /**
   * Deletes one entry ({@code name}), or every entry of the store when {@code name} is null; for
   * commentarii, of agent {@code centurio}. Returns the names deleted.
   */
  public List<String> clear(MemoryKind kind, String centurio, String name) {
    if (name != null) {
      EntryNames.require(name, kind.singular() + " name");
    }
    String owner = kind == MemoryKind.COMMENTARII ? memoria.requireCenturio(centurio) : null;
    if (kind != MemoryKind.COMMENTARII && centurio != null) {
      throw new MemoryException(kind.plural() + " belong to no agent: leave out the agent");
    }
    List<String> deleted = memoria.store().delete(kind, owner, name);
    if (name != null && deleted.isEmpty()) {
      throw new MemoryException("no " + kind.singular() + " named '" + name + "'");
    }
    return deleted;
  }

  @Override
  List<MemoryEntry> readableCommentarii() {
    List<MemoryEntry> all = new ArrayList<>();
    for (String centurio : memoria.centuriones()) {
      all.addAll(memoria.store().list(MemoryKind.COMMENTARII, centurio));
    }
    return all;
  }
}
