package dev.legio.memoria;

/**
 * One entry found by a search.
 *
 * @param entry the whole entry
 * @param snippet a short excerpt around the first match, on one line
 */
public record SearchHit(MemoryEntry entry, String snippet) {}
