package dev.legio.memoria;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Copies every entry of one {@link MemoryStore} into another: {@code legio memory export} (the
 * configured store into XML files) and {@code legio memory import} (XML files into the configured
 * store). It copies entries whole, notes, authors, times (to the microsecond) and revocations, and
 * every agent's commentarii, including agents no longer in the castra. ({@code legio memory import}
 * goes through {@link Memoria#importFrom}, which first refuses commentarii of a name that is no
 * centurio of the castra.)
 *
 * <p>Rules, per entry, so that a copy never loses what the target holds:
 *
 * <ul>
 *   <li>absent from the target: written ({@link Result#copied});
 *   <li>equal in the target: left alone ({@link Result#unchanged});
 *   <li>the target's is an older state of the source's (its notes are the first notes of the
 *       source's, and it is not revoked otherwise): replaced by the source's ({@link
 *       Result#updated});
 *   <li>anything else (the two have grown apart): a {@link Result#conflicts conflict}, left as the
 *       target has it, unless {@code overwrite} is set, when the source's replaces it.
 * </ul>
 *
 * Each entry is decided and written in one atomic {@link MemoryStore#update}, so a writer changing
 * the target meanwhile is never overwritten unseen.
 */
public final class MemoriaTransfer {
  private MemoriaTransfer() {}

  /** An entry's address: its store, its owner (commentarii) and its name. */
  public record EntryRef(MemoryKind kind, String centurio, String name) {
    @Override
    public String toString() {
      return kind.plural() + (centurio == null ? "" : " of " + centurio) + ": " + name;
    }
  }

  /** What a copy did. */
  public record Result(
      int copied, int updated, int unchanged, List<EntryRef> conflicts, boolean overwrote) {
    public Result {
      conflicts = List.copyOf(conflicts);
    }

    public int entries() {
      return copied + updated + unchanged + conflicts.size();
    }
  }

  private enum Outcome {
    COPIED,
    UPDATED,
    UNCHANGED,
    CONFLICT
  }

  /** Copies every entry of {@code from} into {@code to}, by the rules above. */
  public static Result copy(MemoryStore from, MemoryStore to, boolean overwrite) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    int[] counts = new int[Outcome.values().length];
    List<EntryRef> conflicts = new ArrayList<>();
    List<MemoryEntry> entries = new ArrayList<>(from.list(MemoryKind.EDICTA, null));
    entries.addAll(from.list(MemoryKind.ACTA, null));
    for (String owner : from.commentariiOwners()) {
      entries.addAll(from.list(MemoryKind.COMMENTARII, owner));
    }
    for (MemoryEntry entry : entries) {
      Outcome outcome = copy(entry, to, overwrite);
      counts[outcome.ordinal()]++;
      if (outcome == Outcome.CONFLICT) {
        conflicts.add(new EntryRef(entry.kind(), entry.centurio(), entry.name()));
      }
    }
    return new Result(
        counts[Outcome.COPIED.ordinal()],
        counts[Outcome.UPDATED.ordinal()],
        counts[Outcome.UNCHANGED.ordinal()],
        conflicts,
        overwrite);
  }

  private static Outcome copy(MemoryEntry source, MemoryStore to, boolean overwrite) {
    if (to.find(source.kind(), source.centurio(), source.name())
        .filter(source::equals)
        .isPresent()) {
      return Outcome.UNCHANGED; // the common case of a repeated copy writes nothing
    }
    Outcome[] outcome = new Outcome[1];
    to.update(
        source.kind(),
        source.centurio(),
        source.name(),
        current -> {
          outcome[0] = decide(source, current);
          return outcome[0] == Outcome.UNCHANGED || outcome[0] == Outcome.CONFLICT && !overwrite
              ? current
              : source;
        });
    return outcome[0] == Outcome.CONFLICT && overwrite ? Outcome.UPDATED : outcome[0];
  }

  private static Outcome decide(MemoryEntry source, MemoryEntry current) {
    if (current == null) {
      return Outcome.COPIED;
    }
    if (current.equals(source)) {
      return Outcome.UNCHANGED;
    }
    boolean older =
        current.notes().size() <= source.notes().size()
            && source.notes().subList(0, current.notes().size()).equals(current.notes())
            && (current.revocation() == null || current.revocation().equals(source.revocation()));
    return older ? Outcome.UPDATED : Outcome.CONFLICT;
  }
}
