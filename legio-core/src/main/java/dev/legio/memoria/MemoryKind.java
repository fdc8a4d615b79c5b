package dev.legio.memoria;

import dev.legio.errors.Quoted;
import java.util.Locale;

/**
 * The three stores of memoria, each a folder of XML files, one file per entry.
 *
 * <ul>
 *   <li>{@link #EDICTA}: directives for every agent ({@code castra/edicta/NAME.xml}); the legatus
 *       publishes and revokes them, every agent reads them.
 *   <li>{@link #ACTA}: shared records ({@code castra/acta/NAME.xml}); everyone reads and publishes.
 *   <li>{@link #COMMENTARII}: an agent's own notes ({@code
 *       castra/centuriones/AGENT/commentarii/NAME.xml}); its owner and the legatus read and write
 *       them, no other agent can reach them.
 * </ul>
 */
public enum MemoryKind {
  EDICTA("edicta", "edictum"),
  ACTA("acta", "actum"),
  COMMENTARII("commentarii", "commentarium");

  private final String plural;
  private final String singular;

  MemoryKind(String plural, String singular) {
    this.plural = plural;
    this.singular = singular;
  }

  /** The folder name and the list element: {@code edicta}, {@code acta}, {@code commentarii}. */
  public String plural() {
    return plural;
  }

  /** The entry's root element: {@code edictum}, {@code actum}, {@code commentarium}. */
  public String singular() {
    return singular;
  }

  /** Parses {@code edicta} or {@code edictum} (any case); a clear error for anything else. */
  public static MemoryKind parse(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    for (MemoryKind kind : values()) {
      if (kind.plural.equals(t) || kind.singular.equals(t)) {
        return kind;
      }
    }
    throw new MemoryException(
        "unknown memory store '"
            + Quoted.of(text == null ? "" : text)
            + "': use edicta, acta or commentarii");
  }
}
