package dev.legio.longterm;

import java.time.LocalDate;
import java.util.Locale;

/**
 * One fact of {@code MEMORY.md}'s {@code ## Auto-extracted memories} section, as consolidation
 * reads it: {@code - [preference] Caesar wants reports as bullet points (confidence 0.90)} under a
 * {@code ### Session memories — 2026-11-21} heading.
 *
 * @param day the date of its heading, or null when it stands before any dated heading
 * @param category its category
 * @param text its text, as written
 * @param confidence 0.0 to 1.0
 * @param line the line as written in {@code MEMORY.md} (how prune finds it again)
 */
public record ConsolidationFact(
    LocalDate day, FactCategory category, String text, double confidence, String line) {

  /** The text with its relative dates made absolute against {@link #day}. */
  public String absoluteText() {
    return ConsolidationDates.absolute(text, day);
  }

  /**
   * The key two facts share when they say the same thing: lowercase, spaces collapsed, a final full
   * stop dropped.
   */
  public static String dedupeKey(String text) {
    String key = text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    while (key.endsWith(".")) {
      key = key.substring(0, key.length() - 1).strip();
    }
    return key;
  }
}
