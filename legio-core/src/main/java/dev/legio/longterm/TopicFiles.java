package dev.legio.longterm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The topic files of an agent's folder during one consolidation run: what was read from the folder,
 * what the run will write and what it will remove. Filing ({@link CategoryFiling}) and the index
 * ({@link MemoryIndexBuilder}) work on it in memory; the runner does the writing.
 *
 * <p>Rules: a file's current content is the run's version when it wrote one, else the folder's; a
 * file exists at the end when it is in the folder or written, and not removed.
 */
final class TopicFiles {
  /** Content by name as in the folder (the runner updates it after each write). */
  final Map<String, String> read = new TreeMap<>();

  /** The files this run writes, by name, in the order first written. */
  final Map<String, ConsolidationTopic> written = new LinkedHashMap<>();

  /** The files this run removes (the model asked to). */
  final List<String> removed = new ArrayList<>();

  /** The current content of {@code name}: the run's version, else the folder's; null for none. */
  String content(String name) {
    ConsolidationTopic t = written.get(name);
    return t != null ? t.content() : read.get(name);
  }

  /** The names of the topic files there will be once the run is done, sorted. */
  Set<String> existing() {
    Set<String> exists = new TreeSet<>(read.keySet());
    exists.addAll(written.keySet());
    removed.forEach(exists::remove);
    return exists;
  }
}
