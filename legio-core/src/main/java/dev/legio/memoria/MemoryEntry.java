package dev.legio.memoria;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One entry of memoria as stored in its XML file: its notes (the text published under the name,
 * oldest first, each with its author and time) and, for an edictum, its revocation.
 *
 * @param centurio the agent whose commentarium this is; null for edicta and acta
 * @param revocation null while the edictum stands (always null for acta and commentarii)
 */
public record MemoryEntry(
    MemoryKind kind, String name, String centurio, List<Note> notes, Revocation revocation) {

  public MemoryEntry {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    notes = List.copyOf(notes);
    if (notes.isEmpty()) {
      throw new IllegalArgumentException("an entry has at least one note");
    }
  }

  /** One text published under the entry's name. */
  public record Note(String author, Instant timestamp, String text) {
    public Note {
      Objects.requireNonNull(author, "author");
      Objects.requireNonNull(timestamp, "timestamp");
      Objects.requireNonNull(text, "text");
    }
  }

  /** Who revoked an edictum, when, and why (the reason may be empty). */
  public record Revocation(String by, Instant timestamp, String reason) {
    public Revocation {
      Objects.requireNonNull(by, "by");
      Objects.requireNonNull(timestamp, "timestamp");
      reason = reason == null ? "" : reason;
    }
  }

  /** Who first published the entry. */
  public String author() {
    return notes.get(0).author();
  }

  /** When the entry was first published. */
  public Instant createdAt() {
    return notes.get(0).timestamp();
  }

  /** When the last note was added. */
  public Instant updatedAt() {
    return notes.get(notes.size() - 1).timestamp();
  }

  public boolean revoked() {
    return revocation != null;
  }

  MemoryEntry withNote(Note note) {
    List<Note> more = new java.util.ArrayList<>(notes);
    more.add(note);
    return new MemoryEntry(kind, name, centurio, more, revocation);
  }

  MemoryEntry revokedBy(Revocation r) {
    return new MemoryEntry(kind, name, centurio, notes, r);
  }
}
