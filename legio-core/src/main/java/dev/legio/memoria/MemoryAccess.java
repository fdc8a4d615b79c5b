package dev.legio.memoria;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What every caller may do with memoria: read edicta and acta, publish acta under its own name, and
 * search what it may read. {@link AgentMemory} and {@link LegatusMemory} add the rest.
 *
 * <p>Publishing an actum under a name that exists adds a note to it (an update; nothing is
 * overwritten). An edictum name is used once: publishing over an existing edictum is refused.
 */
public abstract sealed class MemoryAccess permits AgentMemory, LegatusMemory {
  final Memoria memoria;
  final String caller;

  MemoryAccess(Memoria memoria, String caller) {
    this.memoria = memoria;
    this.caller = caller;
  }

  /** Who acts: the author recorded on what it publishes. */
  public String caller() {
    return caller;
  }

  /** The edicta, by name; revoked ones only when asked. */
  public List<MemoryEntry> listEdicta(boolean includeRevoked) {
    return memoria.store().list(MemoryKind.EDICTA, null).stream()
        .filter(e -> includeRevoked || !e.revoked())
        .toList();
  }

  public MemoryEntry readEdictum(String name) {
    return get(MemoryKind.EDICTA, null, name);
  }

  public List<MemoryEntry> listActa() {
    return memoria.store().list(MemoryKind.ACTA, null);
  }

  public MemoryEntry readActum(String name) {
    return get(MemoryKind.ACTA, null, name);
  }

  /** Publishes an actum as the caller; an existing actum of that name gets a new note. */
  public MemoryEntry publishActum(String name, String text) {
    return append(MemoryKind.ACTA, null, name, text);
  }

  /**
   * Entries the caller may read whose name or text holds every word of {@code query} (case
   * ignored), edicta first, then acta, then commentarii; at most {@code limit}.
   */
  public List<SearchHit> search(String query, int limit) {
    return search(query, limit, true);
  }

  /**
   * Like {@link #search} over edicta and acta only, never commentarii: for a reader who may see
   * only what every agent shares (a {@code chat} channel).
   */
  public List<SearchHit> searchShared(String query, int limit) {
    return search(query, limit, false);
  }

  private List<SearchHit> search(String query, int limit, boolean withCommentarii) {
    List<String> words = words(query);
    List<SearchHit> hits = new ArrayList<>();
    List<MemoryEntry> candidates = new ArrayList<>(listEdicta(true));
    candidates.addAll(listActa());
    if (withCommentarii) {
      candidates.addAll(readableCommentarii());
    }
    for (MemoryEntry e : candidates) {
      if (hits.size() >= limit) {
        break;
      }
      String snippet = match(e, words);
      if (snippet != null) {
        hits.add(new SearchHit(e, snippet));
      }
    }
    return hits;
  }

  /** Every commentarium the caller may read. */
  abstract List<MemoryEntry> readableCommentarii();

  MemoryEntry get(MemoryKind kind, String centurio, String name) {
    EntryNames.require(name, kind.singular() + " name");
    return memoria
        .store()
        .find(kind, centurio, name)
        .orElseThrow(
            () ->
                new MemoryException(
                    "no "
                        + kind.singular()
                        + " named '"
                        + name
                        + "'"
                        + (centurio == null ? "" : " in " + centurio + "'s commentarii")
                        + "; list_"
                        + kind.plural()
                        + " shows the names"));
  }

  MemoryEntry append(MemoryKind kind, String centurio, String name, String text) {
    EntryNames.require(name, kind.singular() + " name");
    MemoryXml.requireText(text, "the text", Memoria.MAX_TEXT_BYTES);
    if (text.isBlank()) {
      throw new MemoryException("the text is empty: write what the " + kind.singular() + " says");
    }
    Instant now = memoria.now();
    MemoryEntry.Note note = new MemoryEntry.Note(caller, now, text);
    return memoria
        .store()
        .update(
            kind,
            centurio,
            name,
            current -> {
              if (current == null) {
                return new MemoryEntry(kind, name, centurio, List.of(note), null);
              }
              if (kind == MemoryKind.EDICTA) {
                throw new MemoryException(
                    "an edictum named '"
                        + name
                        + "' already exists ("
                        + (current.revoked() ? "revoked" : "in force")
                        + "); publish under a new name");
              }
              return current.withNote(note);
            });
  }

  static List<String> words(String query) {
    if (query == null || query.isBlank()) {
      throw new MemoryException("the search query is empty: give one or more words");
    }
    MemoryXml.requireText(query, "the search query", 4096);
    return List.of(query.strip().toLowerCase(Locale.ROOT).split("\\s+"));
  }

  /** The snippet for {@code e} if its name or text holds every word, else null. */
  static String match(MemoryEntry e, List<String> words) {
    StringBuilder all = new StringBuilder();
    for (MemoryEntry.Note n : e.notes()) {
      all.append(all.isEmpty() ? "" : "\n").append(n.text());
    }
    String text = all.toString();
    String lower = text.toLowerCase(Locale.ROOT);
    String name = e.name().toLowerCase(Locale.ROOT);
    for (String w : words) {
      if (!lower.contains(w) && !name.contains(w)) {
        return null;
      }
    }
    int at = Math.max(0, Math.min(lower.indexOf(words.get(0)), text.length()));
    int from = Math.max(0, at - 60);
    int to = Math.min(text.length(), at + 100);
    String snippet = text.substring(from, to).replaceAll("\\s+", " ").strip();
    return (from > 0 ? "…" : "") + snippet + (to < text.length() ? "…" : "");
  }
}
